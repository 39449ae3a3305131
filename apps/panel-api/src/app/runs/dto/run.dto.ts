import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ReplicaFailureDto } from '../../cluster/cluster.dto';
import { FAILURE_CATEGORIES, RUN_MESSAGE_CODES, RUN_STATES } from '../../common/run-outcomes';
import { en } from '@shared/panel-texts';
import { FLOW_LOG_CODES } from '../action-runner';
import { RUN_VERDICTS } from '../../common/verdict';

const PHASE_DETAIL_CODE = {
  nullable: true,
  enum: Object.keys(en.phaseDetail),
  description: 'The sentence of the catalogue (@shared/panel-texts phaseDetail) that `phase_detail` is, to say it in the reader\'s language',
} as const;
const CODE_PARAMS = { type: 'object', additionalProperties: { type: 'string' }, description: 'The values the coded sentence names (empty without a code)' } as const;

export class FlowLogEntryDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ nullable: true, type: String, example: 'chat 1 action 2' }) step!: string | null;
  @ApiProperty({ enum: ['info', 'warn', 'error'] }) level!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ enum: FLOW_LOG_CODES, description: 'A line the runner wrote itself: its stable code, to say it in the reader\'s language (absent on lines that carry an error\'s text, and on older runs)' })
  code?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] }, description: 'The values the code\'s sentence names', example: { seconds: 3 } })
  params?: Record<string, string | number>;
}

export class RunStatusDto {
  @ApiProperty({ nullable: true, type: String }) run_id!: string | null;
  @ApiProperty() task_name!: string;
  @ApiProperty({ nullable: true, type: String }) account_name!: string | null;
  @ApiProperty({ enum: RUN_STATES }) state!: string;
  @ApiProperty({ nullable: true, enum: ['starting', 'checking_account', 'waiting_lock', 'cooldown', 'running', 'finalizing'] }) phase!: string | null;
  @ApiProperty({ nullable: true, type: String }) phase_detail!: string | null;
  @ApiProperty(PHASE_DETAIL_CODE) phase_detail_code!: string | null;
  @ApiProperty(CODE_PARAMS) phase_detail_params!: Record<string, string>;
  @ApiProperty({ nullable: true, type: Boolean }) success!: boolean | null;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ nullable: true, enum: RUN_MESSAGE_CODES, description: 'The sentence of the catalogue (runMessage) that `error` is, to say it in the reader\'s language; null for an uncoded error text' })
  error_code!: string | null;
  @ApiProperty(CODE_PARAMS) error_params!: Record<string, string>;
  @ApiProperty({ enum: FAILURE_CATEGORIES }) failure_category!: string;
  @ApiProperty({ nullable: true, type: String }) output!: string | null;
  @ApiProperty({ nullable: true, enum: RUN_VERDICTS, description: "What the bot's answer said (tasks with verdict patterns); null when the task declares none" }) verdict!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The answer that decided the verdict (one line, at most 500 characters)' }) verdict_text!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finished_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) wait_seconds!: number | null;
  @ApiProperty() timeout_seconds!: number;
  @ApiProperty({ nullable: true, type: String }) trigger!: string | null;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: [FlowLogEntryDto], description: 'In-memory flow log; empty about 60 s after the end (history keeps it)' }) logs!: FlowLogEntryDto[];
}

export class TaskRunStatusDto extends RunStatusDto {
  @ApiProperty({ type: [RunStatusDto], description: 'One entry per account of the task still in memory' }) runs!: RunStatusDto[];
}

export class ActiveRunDto {
  @ApiProperty() run_id!: string;
  @ApiProperty() task_name!: string;
  @ApiProperty() account_name!: string;
  @ApiProperty() phase!: string;
  @ApiProperty({ nullable: true, type: String }) phase_detail!: string | null;
  @ApiProperty(PHASE_DETAIL_CODE) phase_detail_code!: string | null;
  @ApiProperty(CODE_PARAMS) phase_detail_params!: Record<string, string>;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ nullable: true, type: Number }) wait_seconds!: number | null;
  @ApiProperty({ description: 'The replica running it (replicas on PostgreSQL; on one instance always that instance)' }) replica_id!: string;
}

export class ActiveRunListDto {
  @ApiProperty({ type: [ActiveRunDto], description: 'The runs in progress on every live replica' }) runs!: ActiveRunDto[];
  @ApiProperty() total!: number;
  @ApiProperty({ type: [ReplicaFailureDto], description: 'Replicas that failed or did not answer: their runs are missing from `runs` (always empty on one instance)' })
  failures!: ReplicaFailureDto[];
}

export class StartedRunDto {
  @ApiProperty() run_id!: string;
  @ApiProperty() account_name!: string;
}

/** An account whose run did not start because the replica that owns it failed or did not answer. */
export class RunFailureDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ description: 'The error code the owner answered (or service_unavailable when it did not answer)', example: 'service_unavailable' }) code!: string;
  @ApiProperty() message!: string;
}

export class RunStartedDto {
  @ApiProperty() task_name!: string;
  @ApiProperty({ type: [StartedRunDto] }) runs!: StartedRunDto[];
  @ApiProperty({ type: [RunFailureDto], description: 'Replicas: accounts whose owner failed to start the run while others started (empty on one instance)' })
  failures!: RunFailureDto[];
}

export class RunTaskDto {
  @ApiPropertyOptional({ description: 'Run for this account only (it must be one of the task\'s accounts)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  account_name?: string;
}

export class CancelResultDto {
  @ApiProperty() task_name!: string;
  @ApiProperty({ description: 'Runs asked to stop (they stop at the next step or wait)' }) cancelled!: number;
  @ApiProperty({ type: [ReplicaFailureDto], description: 'Replicas: those that could not be asked to stop their runs of the task (empty on one instance)' })
  failures!: ReplicaFailureDto[];
}

export class HistoryQueryDto {
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  account?: string;
}

export class HistoryEntryDto {
  @ApiProperty() run_id!: string;
  @ApiProperty() task_name!: string;
  @ApiProperty() account_name!: string;
  @ApiProperty() trigger!: string;
  @ApiProperty({ enum: ['finished', 'cancelled', 'timeout'] }) state!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty() failure_category!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, enum: RUN_MESSAGE_CODES, description: 'The sentence of the catalogue (@shared/panel-texts runMessage) when the runner or a named error wrote the message: say it in the reader\'s language, with `message` as the detail; null for a bot\'s answer or an uncoded error text' })
  message_code!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The values the sentence of `message_code` names (empty without a code)', example: { seconds: '37' } })
  message_params!: Record<string, string>;
  @ApiProperty() attempts!: number;
  @ApiProperty({ nullable: true, enum: RUN_VERDICTS, description: "What the bot's answer said (tasks with verdict patterns); null when the task declares none" }) verdict!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The answer that decided the verdict (one line, at most 500 characters)' }) verdict_text!: string | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) finished_at!: string;
  @ApiProperty({ type: [FlowLogEntryDto] }) flow_log!: FlowLogEntryDto[];
}

export class HistoryListDto {
  @ApiProperty() task_name!: string;
  @ApiProperty({ type: [HistoryEntryDto] }) history!: HistoryEntryDto[];
}
