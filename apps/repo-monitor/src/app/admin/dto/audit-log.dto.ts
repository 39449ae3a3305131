import { ApiProperty } from '@nestjs/swagger';

export class AuditLogItemDto {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty() actor!: string;
  @ApiProperty() action!: string;
  @ApiProperty({ nullable: true, type: String }) target!: string | null;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) details!: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: String }) client_ip!: string | null;
}

export class AuditLogPageDto {
  @ApiProperty({ type: [AuditLogItemDto] }) items!: AuditLogItemDto[];
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() total!: number;
}
