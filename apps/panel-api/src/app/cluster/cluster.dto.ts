import { ApiProperty } from '@nestjs/swagger';

export class ClusterReplicaDto {
  @ApiProperty({ example: 'panel-api-7d9f-0', description: 'APP_CLUSTER_REPLICA_ID, or <hostname>-<random>' }) id!: string;
  @ApiProperty({ example: 'http://10.0.3.7:8000', description: 'APP_CLUSTER_ADDRESS, or http://<hostname>:<PORT>' }) address!: string;
  @ApiProperty({ example: '1.4.0' }) version!: string;
  @ApiProperty({ format: 'date-time' }) last_heartbeat_at!: string;
  @ApiProperty({ description: 'Whether this replica runs the system jobs (keep-alive, maintenance, automatic backups)' }) leader!: boolean;
  @ApiProperty({ type: [String], description: 'The accounts whose Telegram sessions this replica uses now' }) accounts!: string[];
}

export class ClusterAccountDto {
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The live replica holding the lease; null between owners' }) owner!: string | null;
  @ApiProperty({ description: 'Fencing epoch of the lease: raised at every change of owner (0 before the first)' }) epoch!: number;
}

export class ClusterDto {
  @ApiProperty({ description: 'Whether replicas share the accounts (PostgreSQL); false on SQLite, where one instance owns every account' }) enabled!: boolean;
  @ApiProperty({ description: 'The replica that answered' }) replica_id!: string;
  @ApiProperty({ type: [ClusterReplicaDto], description: 'Live replicas only (a heartbeat within the lease period)' }) replicas!: ClusterReplicaDto[];
  @ApiProperty({ type: [ClusterAccountDto] }) accounts!: ClusterAccountDto[];
}

/** A replica that could not be asked (it failed or did not answer); what it holds is left out of the answer. */
export class ReplicaFailureDto {
  @ApiProperty() replica_id!: string;
  @ApiProperty({ description: 'The error code the replica answered (service_unavailable when it did not answer)', example: 'service_unavailable' }) code!: string;
  @ApiProperty() message!: string;
}
