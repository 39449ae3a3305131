import { ApiProperty } from '@nestjs/swagger';

export class FloodWaitDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ description: 'Seconds Telegram asked to wait' }) seconds!: number;
  @ApiProperty({ example: 'sendMessage', description: 'The call Telegram answered with the FloodWait' }) method!: string;
}

/** GET /api/accounts/{name}/safety: the account's action budget, FloodWaits and pause. */
export class AccountSafetyDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ description: "True while the account's automation is paused after a long FloodWait" }) paused!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) paused_at!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'FloodWait of 900 s on sendMessage' }) pause_reason!: string | null;
  @ApiProperty({ description: 'Actions (messages, dice, clicks, deletions) in the last 60 s' }) minute_used!: number;
  @ApiProperty() minute_limit!: number;
  @ApiProperty({ description: 'Actions today (UTC)' }) day_used!: number;
  @ApiProperty() day_limit!: number;
  @ApiProperty({ description: 'Actions refused today: budget used up, paused, or a listener reply that would have waited too long' }) refused_today!: number;
  @ApiProperty({ description: 'Every Telegram call of the account today, reads included' }) calls_today!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'No action before this time (a FloodWait in force)' }) flood_wait_until!: string | null;
  @ApiProperty({ type: [FloodWaitDto], description: 'Latest FloodWaits, newest first (at most 20)' }) flood_waits!: FloodWaitDto[];
}
