export const CLUSTER_TIMINGS = Symbol('CLUSTER_TIMINGS');

/** Overrides of the cluster's beat (tests); the defaults follow APP_CLUSTER_LEASE_SECONDS. */
export interface ClusterTimings {
  /** How often a replica heartbeats and renews its leases; default a third of the lease. */
  heartbeatMs?: number;
  /** How long before its lease's expiry a replica stops trusting it; default 3 s (at most a quarter of the lease). */
  safetyMarginMs?: number;
}

export const DEFAULT_CLUSTER_TIMINGS: ClusterTimings = {};
