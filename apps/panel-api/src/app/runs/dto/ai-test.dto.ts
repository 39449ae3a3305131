import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class AiTestResultDto {
  @ApiProperty({ description: 'true when the model answered' }) ok!: boolean;
  @ApiProperty({ description: 'The saved model the question went to' }) model!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The saved base URL (null: the OpenAI API)' }) base_url!: string | null;
  @ApiProperty({ description: 'Milliseconds until the answer or the failure' }) latency_ms!: number;
  @ApiPropertyOptional({ description: "The model's answer, at most 200 characters" }) answer?: string;
  @ApiPropertyOptional({ enum: ['timeout', 'error'], description: 'What kind of failure' }) error_kind?: 'timeout' | 'error';
  @ApiPropertyOptional({ description: 'Why the test failed (the API status and message, or the network failure)' }) error?: string;
}
