import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TESTABLE_CHANNELS, TestableChannel } from '../panel-notifier.service';

export class ChannelParamDto {
  @ApiProperty({ enum: TESTABLE_CHANNELS, description: 'The channel to test' })
  @IsIn(TESTABLE_CHANNELS, { message: `Choose one of the channels: ${TESTABLE_CHANNELS.join(', ')}` })
  channel!: TestableChannel;
}

const ERROR_CODES = ['http_error', 'rate_limited', 'timeout', 'network_error', 'invalid_url', 'private_target_refused', 'redirect_refused', 'dns_failed', 'rejected_by_receiver', 'encryption_required'];

/** The last test of one channel. */
export class ChannelTestDto {
  @ApiProperty({ enum: TESTABLE_CHANNELS }) channel!: TestableChannel;
  @ApiProperty({ description: 'When the test ran (ISO 8601, UTC)' }) tested_at!: string;
  @ApiProperty({ description: 'true when the receiver accepted the test message' }) ok!: boolean;
  @ApiPropertyOptional({ enum: ERROR_CODES, nullable: true, type: String, description: 'Why it failed (a stable code the web app explains)' })
  error_code!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, description: "The receiver's HTTP status, when it answered" }) status!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'What the receiver said when it refused (never a network error)' })
  detail!: string | null;
}

export class ChannelTestListDto {
  @ApiProperty({ type: [ChannelTestDto], description: 'The last test of every channel tested so far' }) tests!: ChannelTestDto[];
}
