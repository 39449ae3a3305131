import { AdminUsers1732250000000 } from './1732250000000-admin-users';
import { KeywordHits1795315569098 } from './1795315569098-keyword-hits';
import { SignLogs1795315616322 } from './1795315616322-sign-logs';
import { KeywordHitsSearch1795400000000 } from './1795400000000-keyword-hits-search';
import { KeywordHitsFtsDeferred1795500000000 } from './1795500000000-keyword-hits-fts-deferred';
import { KeywordHitGroupsLatest1795600000000 } from './1795600000000-keyword-hit-groups-latest';
import { KeywordHitsSearchFiltered1795700000000 } from './1795700000000-keyword-hits-search-filtered';
import { KeywordHitGroupsAll1795800000000 } from './1795800000000-keyword-hit-groups-all';
import { KeywordHitsAccountId1795930000000 } from './1795930000000-keyword-hits-account-id';
import { AuthThrottlesRevokedTokens1795950000000 } from './1795950000000-auth-throttles-revoked-tokens';
import { NotificationChannelTests1796100000000 } from './1796100000000-notification-channel-tests';
import { SignTasks1796200000000 } from './1796200000000-sign-tasks';
import { Accounts1796200001000 } from './1796200001000-accounts';
import { ClusterLeases1796400000000 } from './1796400000000-cluster-leases';
import { RunVerdicts1796600000000 } from './1796600000000-run-verdicts';
import { AccountSafety1796600001000 } from './1796600001000-account-safety';
import { LoginThrottles1796700000000 } from './1796700000000-login-throttles';
import { KeepaliveState1796700001000 } from './1796700001000-keepalive-state';
import { RunFlowLogs1796700002000 } from './1796700002000-run-flow-logs';
import { PendingReruns1796710000000 } from './1796710000000-pending-reruns';
import { SafetyDayBudget1796740000000 } from './1796740000000-safety-day-budget';
import { PanelSettings1796800000000 } from './1796800000000-panel-settings';
import { ReplicaSharedState1797000000000 } from './1797000000000-replica-shared-state';

/** Every PostgreSQL migration, oldest first; the same names and order as the SQLite list. */
export const postgresMigrations = [AdminUsers1732250000000, KeywordHits1795315569098, SignLogs1795315616322, KeywordHitsSearch1795400000000, KeywordHitsFtsDeferred1795500000000, KeywordHitGroupsLatest1795600000000, KeywordHitsSearchFiltered1795700000000, KeywordHitGroupsAll1795800000000, KeywordHitsAccountId1795930000000, AuthThrottlesRevokedTokens1795950000000, NotificationChannelTests1796100000000, SignTasks1796200000000, Accounts1796200001000, ClusterLeases1796400000000, RunVerdicts1796600000000, AccountSafety1796600001000, LoginThrottles1796700000000, KeepaliveState1796700001000, RunFlowLogs1796700002000, PendingReruns1796710000000, SafetyDayBudget1796740000000, PanelSettings1796800000000, ReplicaSharedState1797000000000];
