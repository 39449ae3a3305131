import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AddressInfo } from 'node:net';
import { ReadinessService } from '@shared/http-service';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource, EntityManager } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { listenerScopeExclusion } from './account-scope';
import { PanelMetrics } from '../metrics/metrics.service';
import { VersionService } from '../ops/version.service';
import { CLUSTER_TIMINGS, ClusterTimings } from './cluster-timings';
import { planLeases } from './lease-plan';

/** A lease this replica holds: the account's fencing epoch as the database gave it. */
export interface HeldLease {
  epoch: number;
  acquiredAt: number;
}

/** What changed in this replica's leases in one heartbeat. */
export interface OwnershipChange {
  gained: string[];
  lost: string[];
}

export type OwnershipListener = (change: OwnershipChange) => void;
/** Runs before this replica gives an account up (release or lost lease): stop every use of its session. */
export type ReleaseHook = (accounts: string[]) => Promise<void>;

/** `GET /api/ops/cluster`. */
export interface ClusterView {
  enabled: boolean;
  replica_id: string;
  replicas: Array<{ id: string; address: string; version: string; last_heartbeat_at: string; leader: boolean; accounts: string[] }>;
  accounts: Array<{ name: string; owner: string | null; epoch: number }>;
}

/** A write for an account that this replica may no longer make: its lease is gone or has a newer epoch. */
export class StaleLeaseError extends Error {
  constructor(
    readonly accountName: string,
    reason: string,
  ) {
    super(`Refused a write for account ${accountName}: ${reason}`);
    this.name = 'StaleLeaseError';
  }
}

interface LeaseRow {
  account: string;
  owner: string | null;
  epoch: string | number;
  expires_at: string | number;
}

const LEADER_LEASE = 'scheduler';

/**
 * Replicas on one PostgreSQL database (issue 31, docs/scaling.md): every replica heartbeats in
 * `replicas`; each Telegram account has one owner through a lease in `account_leases` (owner, fencing
 * epoch, expiry from the database's clock) renewed on every heartbeat; one replica holds
 * `cluster_leader` and runs the system jobs. Accounts spread evenly: a replica holding more than its
 * share (ceil(accounts / live replicas)) releases the surplus after it stopped using those sessions,
 * and a replica below its share takes free or expired leases; a free lease nobody took for a whole
 * lease period is taken by any replica allowed to, so no account stays without an owner.
 *
 * A replica trusts its leases only until `sent + lease - safety margin` of the last heartbeat that
 * renewed them (its own monotonic clock, which keeps running through SIGSTOP): past that it stops
 * every session at once, before any other replica can take them. Writes for an account go through
 * `assertOwned` in their transaction, which checks owner, epoch and expiry in the database.
 *
 * On SQLite (one instance) the cluster is off: this replica owns every account and leads.
 */
@Injectable()
export class ClusterService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ClusterService.name);
  readonly replicaId: string;
  private readonly configuredAddress?: string;
  private readonly held = new Map<string, HeldLease>();
  private leaderEpochHeld?: number;
  private busy: (accountName: string) => boolean = () => false;
  /** performance.now() after which no lease of this replica is trusted any more. */
  private trustedUntil = 0;
  private timer?: NodeJS.Timeout;
  private watchdog?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;
  private readonly listeners = new Set<OwnershipListener>();
  private readonly leaderListeners = new Set<(leader: boolean) => void>();
  private readonly releaseHooks = new Set<ReleaseHook>();
  /** Free leases seen per account: when first seen free (ms, database clock), to take orphans after a lease period. */
  private readonly freeSince = new Map<string, number>();
  /** Accounts in a login flow here (performance.now() until which the hold lasts): kept, never handed over. */
  private readonly loginHolds = new Map<string, number>();
  private lastHeartbeat?: { at: string; durationMs: number; ok: boolean; error?: string };
  readonly counters = { takeovers: 0, acquired: 0, released: 0, lost: 0, fencedWritesRefused: 0 };

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly readiness: ReadinessService,
    private readonly metrics: PanelMetrics,
    private readonly version: VersionService,
    @Inject(CLUSTER_TIMINGS) private readonly timings: ClusterTimings,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.replicaId = config.cluster.replicaId ?? `${hostname().slice(0, 40)}-${randomBytes(4).toString('hex')}`;
    this.configuredAddress = config.cluster.address;
  }

  /**
   * How the other replicas reach this one: APP_CLUSTER_ADDRESS, or this host on the port the server
   * listens on (PORT=0 picks one at start), by its host name unless it listens on one address only.
   */
  get address(): string {
    if (this.configuredAddress) return this.configuredAddress;
    let port = this.config.http.port;
    try {
      const bound = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
      if (bound && typeof bound === 'object' && bound.port) port = bound.port;
    } catch {
      // Not listening yet: the configured port.
    }
    const host = ['0.0.0.0', '::', ''].includes(this.config.http.host) ? hostname() : this.config.http.host.includes(':') ? `[${this.config.http.host}]` : this.config.http.host;
    return `http://${host}:${port}`;
  }

  /** Whether this instance shares its accounts with other replicas (PostgreSQL). */
  get active(): boolean {
    return this.config.cluster.enabled;
  }

  get leaseSeconds(): number {
    return this.config.cluster.leaseSeconds;
  }

  private get leaseMs(): number {
    return this.config.cluster.leaseSeconds * 1000;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.metrics.watchCluster(this);
    this.readiness.addDetail('cluster', () => this.describe());
    if (!this.active) return;
    // The first heartbeat before serving: a replica that starts knows its share at once.
    await this.tick();
    this.schedule();
  }

  /** Before the database connection closes (TypeORM closes it in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.watchdog) clearTimeout(this.watchdog);
    if (!this.active) return;
    await this.ticking?.catch(() => undefined);
    // A clean stop hands the accounts over at once instead of after the lease expiry.
    const accounts = [...this.held.keys()];
    try {
      await this.giveUp(accounts, 'shutdown');
      await this.dataSource.query(`UPDATE "cluster_leader" SET "owner" = NULL, "expires_at" = 0 WHERE "name" = $1 AND "owner" = $2`, [LEADER_LEASE, this.replicaId]);
      await this.dataSource.query(`DELETE FROM "replicas" WHERE "id" = $1`, [this.replicaId]);
    } catch (error) {
      this.logger.warn(`Releasing the leases at shutdown failed (they expire on their own): ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Whether this replica may use the account's Telegram session now. */
  owns(accountName: string): boolean {
    if (!this.active) return true;
    return this.held.has(accountName) && this.trusted();
  }

  /** The fencing epoch this replica holds for the account, or undefined. */
  epochOf(accountName: string): number | undefined {
    return this.owns(accountName) ? this.held.get(accountName)?.epoch : undefined;
  }

  /** Whether this replica runs the system jobs (keep-alive, maintenance, automatic backups). */
  isLeader(): boolean {
    if (!this.active) return true;
    return this.leaderEpochHeld !== undefined && this.trusted();
  }

  /** The epoch of the leader lease while this replica leads and trusts it. */
  leaderEpoch(): number | undefined {
    return this.active && this.trusted() ? this.leaderEpochHeld : undefined;
  }

  /** Counts a write refused by a fence outside assertOwned (a fenced claim). */
  countRefusedWrite(accountName: string, what: string): void {
    this.counters.fencedWritesRefused += 1;
    this.logger.warn(`Fenced write refused for ${accountName}: ${what} (the lease is no longer this replica's)`);
  }

  /** Accounts that must not be handed over by a rebalance now (a run in progress): asked on every heartbeat. */
  setBusyCheck(check: (accountName: string) => boolean): void {
    this.busy = check;
  }

  ownedAccounts(): string[] {
    return this.active ? (this.trusted() ? [...this.held.keys()].sort() : []) : [];
  }

  onOwnershipChange(listener: OwnershipListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onLeaderChange(listener: (leader: boolean) => void): () => void {
    this.leaderListeners.add(listener);
    return () => this.leaderListeners.delete(listener);
  }

  /** Work that must end before an account is given up (stop the listener, disconnect the session). */
  addReleaseHook(hook: ReleaseHook): () => void {
    this.releaseHooks.add(hook);
    return () => this.releaseHooks.delete(hook);
  }

  /**
   * The fence of a write done for an account: in the write's transaction, checks that this replica
   * still owns the account's lease with the epoch it holds and that the lease has not expired, and
   * locks the lease row (FOR SHARE) until the write commits, so a takeover waits for it. Throws
   * StaleLeaseError (counted) otherwise. A no-op on SQLite.
   *
   * `sinceEpoch`: the epoch the work began under (a run's). A replica that lost the lease and got it
   * back meanwhile holds a newer epoch; the work begun under the old one is refused, as the replica
   * that took the account over in between has recorded it already.
   */
  async assertOwned(manager: EntityManager, accountName: string, sinceEpoch?: number): Promise<void> {
    if (!this.active) return;
    const lease = this.held.get(accountName);
    if (!lease || !this.trusted()) {
      this.refuse(accountName, lease ? 'its lease was not renewed in time' : 'this replica does not own it');
    }
    if (sinceEpoch !== undefined && lease.epoch !== sinceEpoch) {
      this.refuse(accountName, `the work began under epoch ${sinceEpoch}, and the lease passed to another replica and back since (epoch ${lease.epoch})`);
    }
    // The share lock makes a takeover wait for this write; a replica paused (SIGSTOP, a frozen VM) inside
    // the transaction would hold it, and every other replica's heartbeat behind it, for as long as it
    // stays paused. PostgreSQL ends such a transaction (and its locks) once it idles longer than the margin.
    await manager.query(`SET LOCAL idle_in_transaction_session_timeout = ${this.safetyMarginMs()}`);
    const rows = (await manager.query(
      `SELECT "epoch" FROM "account_leases"
        WHERE "account" = $1 AND "owner" = $2 AND "epoch" = $3 AND "expires_at" > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint
        FOR SHARE`,
      [accountName, this.replicaId, lease.epoch],
    )) as unknown[];
    if (rows.length === 0) this.refuse(accountName, `its lease (epoch ${lease.epoch}) expired or passed to another replica`);
  }

  /** Counts and throws a refused write. */
  private refuse(accountName: string, reason: string): never {
    this.counters.fencedWritesRefused += 1;
    this.logger.warn(`Fenced write refused for ${accountName}: ${reason}`);
    throw new StaleLeaseError(accountName, reason);
  }

  /** `/readyz` detail: this replica and its leases. */
  describe(): Record<string, unknown> {
    if (!this.active) return { enabled: false, replica_id: this.replicaId, leader: true, leases: 'all accounts (single instance)' };
    return {
      enabled: true,
      replica_id: this.replicaId,
      leader: this.isLeader(),
      lease_seconds: this.config.cluster.leaseSeconds,
      trusted_for_ms: Math.max(0, Math.round(this.trustedUntil - performance.now())),
      leases: [...this.held].map(([account, lease]) => ({ account, epoch: lease.epoch })).sort((a, b) => a.account.localeCompare(b.account)),
      last_heartbeat: this.lastHeartbeat ?? null,
      counters: { ...this.counters },
    };
  }

  /** The cluster as the database knows it: live replicas, who leads, and the owner and epoch of every account. */
  async view(): Promise<ClusterView> {
    const accounts = (await this.dataSource.query(`SELECT "name" FROM "accounts" ORDER BY "name"`)) as Array<{ name: string }>;
    if (!this.active) {
      const names = accounts.map((row) => row.name);
      const info = this.version.info();
      return {
        enabled: false,
        replica_id: this.replicaId,
        replicas: [{ id: this.replicaId, address: this.address, version: info.version, last_heartbeat_at: new Date().toISOString(), leader: true, accounts: names }],
        accounts: names.map((name) => ({ name, owner: this.replicaId, epoch: 0 })),
      };
    }
    const now = await this.databaseNow(this.dataSource.manager);
    const replicas = (await this.dataSource.query(
      `SELECT "id", "address", "version", "last_heartbeat_at" FROM "replicas" WHERE "last_heartbeat_at" > $1 ORDER BY "id"`,
      [now - this.leaseMs],
    )) as Array<{ id: string; address: string; version: string; last_heartbeat_at: string | number }>;
    const leases = (await this.dataSource.query(`SELECT "account", "owner", "epoch", "expires_at" FROM "account_leases"`)) as LeaseRow[];
    const leader = (await this.dataSource.query(`SELECT "owner" FROM "cluster_leader" WHERE "name" = $1 AND "expires_at" > $2`, [LEADER_LEASE, now])) as Array<{ owner: string | null }>;
    const live = new Set(replicas.map((row) => row.id));
    const byAccount = new Map(leases.map((row) => [row.account, row]));
    const ownerOf = (name: string): string | null => {
      const lease = byAccount.get(name);
      if (!lease?.owner || Number(lease.expires_at) <= now || !live.has(lease.owner)) return null;
      return lease.owner;
    };
    return {
      enabled: true,
      replica_id: this.replicaId,
      replicas: replicas.map((row) => ({
        id: row.id,
        address: row.address,
        version: row.version,
        last_heartbeat_at: new Date(Number(row.last_heartbeat_at)).toISOString(),
        leader: leader[0]?.owner === row.id,
        accounts: accounts.filter((account) => ownerOf(account.name) === row.id).map((account) => account.name),
      })),
      accounts: accounts.map(({ name }) => ({ name, owner: ownerOf(name), epoch: Number(byAccount.get(name)?.epoch ?? 0) })),
    };
  }

  /** The owner of an account now (undefined while it has none), from the database. */
  async ownerOf(accountName: string): Promise<{ id: string; address: string } | undefined> {
    if (!this.active) return { id: this.replicaId, address: this.address };
    const rows = (await this.dataSource.query(
      `SELECT r."id", r."address" FROM "account_leases" l JOIN "replicas" r ON r."id" = l."owner"
        WHERE l."account" = $1 AND l."expires_at" > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint`,
      [accountName],
    )) as Array<{ id: string; address: string }>;
    return rows[0];
  }

  /**
   * Takes the lease of an account this replica just stored a session for, when nobody holds it (a
   * login or an imported session here): the account is usable at once instead of after the next
   * heartbeat. An account owned elsewhere stays there. Returns whether this replica owns it now.
   */
  async adopt(accountName: string): Promise<boolean> {
    if (!this.active) return true;
    if (this.owns(accountName)) return true;
    if (!this.trusted()) return false;
    const acquired = await this.acquire(accountName, this.leaseMs);
    if (acquired) this.emit({ gained: [accountName], lost: [] });
    return acquired;
  }

  /**
   * A phone or QR login starts here: takes the account's lease when nobody holds it (also for a
   * brand-new account, which has no row in `accounts` yet) and keeps it here until the login ends or
   * `ttlMs` passes, so every later step of that login is forwarded to this replica and a rebalance
   * does not move it. False when another replica owns the account (then the step belongs there).
   */
  async holdForLogin(accountName: string, ttlMs: number): Promise<boolean> {
    if (!this.active) return true;
    if (!(await this.adopt(accountName))) return false;
    this.loginHolds.set(accountName, performance.now() + ttlMs);
    return true;
  }

  /** The login of the account ended (stored, cancelled or forgotten): the lease follows the usual rules again. */
  endLoginHold(accountName: string): void {
    this.loginHolds.delete(accountName);
  }

  /** Of the given accounts, those another live replica owns now, with that replica; empty on SQLite. */
  async remoteOwners(accountNames: readonly string[]): Promise<Map<string, { id: string; address: string }>> {
    const remote = new Map<string, { id: string; address: string }>();
    if (!this.active) return remote;
    for (const account of accountNames) {
      if (this.owns(account)) continue;
      const owner = await this.ownerOf(account);
      if (owner && owner.id !== this.replicaId) remote.set(account, owner);
    }
    return remote;
  }

  /** The other live replicas (id and address), from the database; none on SQLite. */
  async otherReplicas(): Promise<Array<{ id: string; address: string }>> {
    if (!this.active) return [];
    return (await this.dataSource.query(
      `SELECT "id", "address" FROM "replicas" WHERE "id" <> $1 AND "last_heartbeat_at" > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint - $2 ORDER BY "id"`,
      [this.replicaId, this.leaseMs],
    )) as Array<{ id: string; address: string }>;
  }

  private inLogin(accountName: string): boolean {
    const until = this.loginHolds.get(accountName);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.loginHolds.delete(accountName);
    return false;
  }

  /** Runs one heartbeat now (tests); the timer keeps its own beat. */
  heartbeat(): Promise<void> {
    return this.tick();
  }

  private trusted(): boolean {
    return performance.now() < this.trustedUntil;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.timings.heartbeatMs ?? Math.max(500, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** One heartbeat at a time; a failure is logged and the next beat tries again. */
  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.beat()
      .catch((error: unknown) => {
        this.lastHeartbeat = { at: new Date().toISOString(), durationMs: 0, ok: false, error: error instanceof Error ? error.message : String(error) };
        this.logger.error({ err: error }, 'Cluster heartbeat failed');
      })
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    const sent = performance.now();
    const manager = this.dataSource.manager;
    const now = await this.databaseNow(manager);
    const expires = now + this.leaseMs;
    const info = this.version.info();
    await manager.query(
      `INSERT INTO "replicas" ("id", "address", "version", "started_at", "last_heartbeat_at") VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT ("id") DO UPDATE SET "address" = EXCLUDED."address", "version" = EXCLUDED."version", "last_heartbeat_at" = EXCLUDED."last_heartbeat_at"`,
      [this.replicaId, this.address, info.version.slice(0, 64), now],
    );
    // Renew what this replica holds; a lease missing from the answer was taken (this replica was too late).
    const renewed = (await manager.query(`UPDATE "account_leases" SET "expires_at" = $1 WHERE "owner" = $2 RETURNING "account", "epoch"`, [expires, this.replicaId])) as [
      Array<{ account: string; epoch: string | number }>,
      number,
    ];
    const renewedRows = Array.isArray(renewed[0]) ? renewed[0] : (renewed as unknown as Array<{ account: string; epoch: string | number }>);
    const wasTrusted = this.trusted();
    this.trustedUntil = sent + this.leaseMs - this.safetyMarginMs();
    this.armWatchdog();
    const gained: string[] = [];
    const lost: string[] = [];
    const nowHeld = new Map(renewedRows.map((row) => [row.account, Number(row.epoch)]));
    for (const [account, lease] of this.held) {
      if (nowHeld.get(account) !== lease.epoch) lost.push(account);
    }
    if (lost.length) {
      this.counters.lost += lost.length;
      this.logger.warn(`Lost the leases of ${lost.join(', ')} (taken by another replica)`);
      for (const account of lost) this.held.delete(account);
      await this.runReleaseHooks(lost);
    }
    for (const [account, epoch] of nowHeld) {
      if (!this.held.has(account)) {
        // Still ours in the database after this replica stopped trusting it (a pause shorter than the lease).
        this.held.set(account, { epoch, acquiredAt: now });
        gained.push(account);
      } else if (!wasTrusted) gained.push(account);
    }

    await manager.query(`DELETE FROM "replicas" WHERE "last_heartbeat_at" < $1`, [now - 20 * this.leaseMs]);
    const live = ((await manager.query(`SELECT "id" FROM "replicas" WHERE "last_heartbeat_at" > $1 ORDER BY "id"`, [now - this.leaseMs])) as Array<{ id: string }>).map((row) => row.id);
    if (!live.includes(this.replicaId)) live.push(this.replicaId);
    const accounts = ((await manager.query(`SELECT "name" FROM "accounts" ORDER BY "name"`)) as Array<{ name: string }>).map((row) => row.name);
    const leases = (await manager.query(`SELECT "account", "owner", "epoch", "expires_at" FROM "account_leases"`)) as LeaseRow[];
    const leaseOf = new Map(leases.map((row) => [row.account, row]));
    const free = accounts.filter((name) => {
      const lease = leaseOf.get(name);
      return !lease || !lease.owner || Number(lease.expires_at) <= now;
    });
    for (const account of [...this.freeSince.keys()]) if (!free.includes(account)) this.freeSince.delete(account);
    for (const account of free) if (!this.freeSince.has(account)) this.freeSince.set(account, now);
    // An account being logged in here may have no row yet: its lease stays while the login lasts.
    const removed = [...this.held.keys()].filter((account) => !accounts.includes(account) && !this.inLogin(account));

    const plan = planLeases({
      me: this.replicaId,
      live,
      accounts,
      held: [...this.held.keys()].filter((account) => !removed.includes(account)),
      free,
      eligible: (account) => listenerScopeExclusion(account, this.config.listeners) === undefined,
      busy: (account) => this.busy(account) || this.inLogin(account),
      orphaned: (account) => now - (this.freeSince.get(account) ?? now) >= this.leaseMs,
      ownerCounts: countOwners(leases, now, live),
    });

    const release = [...removed, ...plan.release];
    if (release.length) await this.giveUp(release, removed.length ? 'account removed or share too large' : 'rebalance');

    for (const account of plan.acquire) {
      const previous = leaseOf.get(account);
      if (!(await this.acquire(account, this.leaseMs))) continue;
      if (previous?.owner && previous.owner !== this.replicaId) {
        this.counters.takeovers += 1;
        this.logger.warn(`Took over ${account} from ${previous.owner} (lease expired)`);
      }
      gained.push(account);
    }

    await this.leaderBeat(now, expires);
    this.lastHeartbeat = { at: new Date(now).toISOString(), durationMs: Math.round(performance.now() - sent), ok: true };
    if (!this.trusted()) {
      // The beat itself took longer than the lease allows: trust nothing until the next one.
      await this.dropAll('the heartbeat took longer than the lease allows');
      return;
    }
    if (gained.length || lost.length) this.emit({ gained: gained.sort(), lost: lost.sort() });
  }

  /**
   * Takes a free or expired lease (the epoch rises); false when a live owner holds it, or when a write
   * of the old owner still holds the lease row (its fence) longer than a moment: the heartbeat must not
   * wait behind it past its own lease, and the next beat tries again.
   */
  private async acquire(account: string, leaseMs: number): Promise<boolean> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = ${Math.max(100, Math.floor(this.safetyMarginMs() / 2))}`);
        return this.acquireIn(manager, account, leaseMs);
      });
    } catch (error) {
      if ((error as { code?: string }).code === '55P03') return false;
      throw error;
    }
  }

  private async acquireIn(manager: EntityManager, account: string, leaseMs: number): Promise<boolean> {
    const now = `(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint`;
    const rows = (await manager.query(
      `INSERT INTO "account_leases" ("account", "owner", "epoch", "expires_at", "acquired_at") VALUES ($1, $2, 1, ${now} + $3, ${now})
       ON CONFLICT ("account") DO UPDATE SET "owner" = EXCLUDED."owner", "epoch" = "account_leases"."epoch" + 1,
         "expires_at" = EXCLUDED."expires_at", "acquired_at" = EXCLUDED."acquired_at"
       WHERE "account_leases"."owner" IS NULL OR "account_leases"."expires_at" <= EXCLUDED."acquired_at"
       RETURNING "epoch", "acquired_at"`,
      [account, this.replicaId, leaseMs],
    )) as Array<{ epoch: string | number; acquired_at: string | number }>;
    if (!rows.length) return false;
    this.held.set(account, { epoch: Number(rows[0].epoch), acquiredAt: Number(rows[0].acquired_at) });
    this.counters.acquired += 1;
    return true;
  }

  private async leaderBeat(now: number, expires: number): Promise<void> {
    const rows = (await this.dataSource.query(
      `INSERT INTO "cluster_leader" ("name", "owner", "epoch", "expires_at") VALUES ($1, $2, 1, $3)
       ON CONFLICT ("name") DO UPDATE SET "owner" = EXCLUDED."owner",
         "epoch" = CASE WHEN "cluster_leader"."owner" = EXCLUDED."owner" THEN "cluster_leader"."epoch" ELSE "cluster_leader"."epoch" + 1 END,
         "expires_at" = EXCLUDED."expires_at"
       WHERE "cluster_leader"."owner" = EXCLUDED."owner" OR "cluster_leader"."owner" IS NULL OR "cluster_leader"."expires_at" <= $4
       RETURNING "epoch"`,
      [LEADER_LEASE, this.replicaId, expires, now],
    )) as Array<{ epoch: string | number }>;
    const was = this.leaderEpochHeld !== undefined;
    this.leaderEpochHeld = rows.length ? Number(rows[0].epoch) : undefined;
    if (was !== (this.leaderEpochHeld !== undefined)) this.emitLeader(this.leaderEpochHeld !== undefined);
  }

  /** Stops using the accounts, then hands their leases back (owner NULL) so another replica may take them at once. */
  private async giveUp(accounts: string[], why: string): Promise<void> {
    const owned = accounts.filter((account) => this.held.has(account));
    if (!owned.length) return;
    const epochs = owned.map((account) => this.held.get(account)?.epoch ?? 0);
    for (const account of owned) this.held.delete(account);
    await this.runReleaseHooks(owned);
    this.emit({ gained: [], lost: owned });
    for (let index = 0; index < owned.length; index++) {
      await this.dataSource.query(`UPDATE "account_leases" SET "owner" = NULL, "expires_at" = 0 WHERE "account" = $1 AND "owner" = $2 AND "epoch" = $3`, [
        owned[index],
        this.replicaId,
        epochs[index],
      ]);
    }
    this.counters.released += owned.length;
    this.logger.log(`Released ${owned.join(', ')} (${why})`);
  }

  private safetyMarginMs(): number {
    return Math.min(this.timings.safetyMarginMs ?? 3000, Math.floor(this.leaseMs / 4));
  }

  /** Drops every session when the leases stop being trusted (no heartbeat in time: a pause, a lost database). */
  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    const wait = Math.max(0, this.trustedUntil - performance.now());
    this.watchdog = setTimeout(() => {
      // A timer can fire a moment before the monotonic clock reaches the deadline (whole milliseconds):
      // dropAll would then find the leases still trusted and nothing would stop the sessions later.
      if (this.trusted()) this.armWatchdog();
      else void this.dropAll('no heartbeat renewed the leases in time');
    }, wait);
    this.watchdog.unref();
  }

  private async dropAll(why: string): Promise<void> {
    if (this.trusted()) return;
    const accounts = [...this.held.keys()];
    const wasLeader = this.leaderEpochHeld !== undefined;
    this.leaderEpochHeld = undefined;
    if (wasLeader) this.emitLeader(false);
    if (!accounts.length) return;
    this.logger.warn(`Stopped using ${accounts.length} account(s): ${why}`);
    // Kept in `held`: if the database still names this replica at the next heartbeat, they come back (same epoch).
    await this.runReleaseHooks(accounts);
    this.emit({ gained: [], lost: accounts });
  }

  /** Runs the release hooks, bounded: a hook that hangs must not hold the heartbeat past the lease. */
  private async runReleaseHooks(accounts: string[]): Promise<void> {
    const boundMs = Math.max(500, Math.floor(this.leaseMs / 4));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), boundMs);
      timer.unref();
    });
    const hooks = Promise.all(
      [...this.releaseHooks].map((hook) =>
        hook(accounts).catch((error: unknown) => this.logger.error({ err: error }, `Stopping the sessions of ${accounts.join(', ')} failed`)),
      ),
    );
    if ((await Promise.race([hooks, bound])) === 'late') this.logger.warn(`Stopping the sessions of ${accounts.join(', ')} took longer than ${boundMs} ms; going on`);
    if (timer) clearTimeout(timer);
  }

  private emit(change: OwnershipChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error }, 'A lease listener failed');
      }
    }
  }

  private emitLeader(leader: boolean): void {
    this.logger.log(leader ? 'This replica now leads (system jobs run here)' : 'This replica no longer leads');
    for (const listener of this.leaderListeners) {
      try {
        listener(leader);
      } catch (error) {
        this.logger.error({ err: error }, 'A leader listener failed');
      }
    }
  }

  private async databaseNow(manager: EntityManager): Promise<number> {
    const rows = (await manager.query(`SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS "now"`)) as Array<{ now: string | number }>;
    return Number(rows[0].now);
  }
}

/** Live owners' lease counts (expired leases and dead owners count for nobody). */
function countOwners(leases: LeaseRow[], now: number, live: string[]): Map<string, number> {
  const counts = new Map<string, number>(live.map((id) => [id, 0]));
  for (const lease of leases) {
    if (!lease.owner || Number(lease.expires_at) <= now || !counts.has(lease.owner)) continue;
    counts.set(lease.owner, (counts.get(lease.owner) ?? 0) + 1);
  }
  return counts;
}
