import { Global, Module } from '@nestjs/common';
import { overridableProvider } from '../common/provider-overrides';
import { CLUSTER_TIMINGS, DEFAULT_CLUSTER_TIMINGS } from './cluster-timings';
import { ClusterController } from './cluster.controller';
import { ClusterService } from './cluster.service';
import { JobClaims } from './job-claims';
import { ClusterEvents } from './cluster-events';

/**
 * Replicas on one PostgreSQL database: account leases, the leader, job claims and
 * GET /api/ops/cluster. Global: the session, listener, run and scheduler code asks it who owns an account.
 */
@Global()
@Module({
  controllers: [ClusterController],
  providers: [overridableProvider(CLUSTER_TIMINGS, () => DEFAULT_CLUSTER_TIMINGS), ClusterService, JobClaims, ClusterEvents],
  exports: [ClusterService, JobClaims, ClusterEvents],
})
export class ClusterModule {}
