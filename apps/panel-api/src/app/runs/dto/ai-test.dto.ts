import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const AI_TEST_ERROR_KINDS = ['timeout', 'unreachable', 'unauthorized', 'rate_limited', 'bad_response', 'refused', 'error'] as const;
export type AiTestErrorKind = (typeof AI_TEST_ERROR_KINDS)[number];

export class AiTestResultDto {
  @ApiProperty({ description: 'true when the model answered' }) ok!: boolean;
  @ApiProperty({ description: 'The saved model the question went to' }) model!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The saved base URL (null: the OpenAI API)' }) base_url!: string | null;
  @ApiProperty({ description: 'Milliseconds until the answer or the failure' }) latency_ms!: number;
  @ApiPropertyOptional({ description: "The model's answer, at most 200 characters" }) answer?: string;
  @ApiPropertyOptional({ enum: AI_TEST_ERROR_KINDS, description: 'What kind of failure' }) error_kind?: AiTestErrorKind;
  @ApiPropertyOptional({ description: 'The HTTP status the model API answered, when it answered' }) status?: number;
  @ApiPropertyOptional({ description: 'Why the test failed, in our words (the upstream body is not repeated)' }) error?: string;
}
