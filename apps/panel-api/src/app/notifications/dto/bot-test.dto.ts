import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class BotTestResultDto {
  @ApiProperty({ description: 'true when the Bot API accepted the test message' }) ok!: boolean;
  @ApiProperty({ description: 'The saved chat the message went to' }) chat_id!: string;
  @ApiPropertyOptional({ description: 'HTTP status of the Bot API answer' }) status?: number;
  @ApiPropertyOptional({ description: "Telegram's error_code when it refused" }) telegram_error_code?: number;
  @ApiPropertyOptional({ description: "Telegram's description, or the network failure" }) description?: string;
  @ApiPropertyOptional({ description: 'Seconds Telegram asked to wait (429)' }) retry_after_seconds?: number;
  @ApiProperty({ type: [Number], description: 'Ids of the messages Telegram accepted' }) message_ids!: number[];
}
