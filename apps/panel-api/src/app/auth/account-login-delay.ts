import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ACCOUNT_PASSWORD_DELAY, ACCOUNT_TOTP_DELAY, AccountGuessDelayPolicy, accountGuessWaitSeconds, countedFailures } from '@shared/http-service';
import { Repository } from 'typeorm';
import { PanelError } from '../common/panel-error';
import { Clock } from './clock';
import { AuthThrottle } from './entities/auth-throttle.entity';

type Step = 'password' | 'totp';

const POLICIES: Record<Step, AccountGuessDelayPolicy> = {
  password: ACCOUNT_PASSWORD_DELAY,
  totp: ACCOUNT_TOTP_DELAY,
};

/**
 * Slows guessing at the admin account from any number of addresses (the per-address LoginThrottle
 * cannot): the policies of @shared/http-service, with the counts in the `auth_throttles` table so
 * that every replica sees the same guesses. A login that proves a known browser (known-device
 * cookie or a live token) does not come here at all, so the owner is never locked out.
 *
 * A password check is counted as a failure *before* it runs (a compare-and-set on the count), and
 * the count is cleared when the login succeeds: a parallel burst therefore cannot run more checks
 * than the policy allows, and once the free failures are spent each check waits for the one before.
 */
@Injectable()
export class AccountLoginDelay {
  constructor(
    @InjectRepository(AuthThrottle)
    private readonly rows: Repository<AuthThrottle>,
    private readonly clock: Clock,
  ) {}

  /**
   * Reserves a password check for the account, or throws rate_limited (429, Retry-After) while
   * guesses at it (password or TOTP code) must wait. The TOTP delay is looked at first, so while it
   * holds every guess is refused before its password is checked.
   */
  async beginPasswordCheck(userId: number): Promise<void> {
    const totp = await this.rows.findOneBy({ key: keyOf('totp', userId) });
    if (totp) refuseWhileWaiting(accountGuessWaitSeconds(ACCOUNT_TOTP_DELAY, totp.failures, totp.lastFailureAt, this.clock.now()));
    await this.claim('password', userId);
  }

  /**
   * Reserves a TOTP code check after the right password, on the stricter TOTP delay; like a password
   * check it counts as a failure until the login succeeds, so parallel guesses cannot outrun it.
   */
  async beginTotpCheck(userId: number): Promise<void> {
    await this.claim('totp', userId);
  }

  /** A password check that ended without a verdict (an error): gives its reserved failure back. */
  async releasePasswordCheck(userId: number): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ failures: () => 'failures - 1' })
      .where('key = :key AND failures > 0', { key: keyOf('password', userId) })
      .execute();
  }

  /** Counts one guess of `step` before it is checked (compare-and-set on the count), or throws rate_limited. */
  private async claim(step: Step, userId: number): Promise<void> {
    const policy = POLICIES[step];
    const key = keyOf(step, userId);
    const now = this.clock.now();
    const row = await this.ensureRow(key);
    refuseWhileWaiting(accountGuessWaitSeconds(policy, row.failures, row.lastFailureAt, now));
    const counted = countedFailures(policy, row.failures, row.lastFailureAt, now);
    const claimed = await this.rows.update({ key, failures: row.failures, lastFailureAt: row.lastFailureAt }, { failures: counted + 1, lastFailureAt: now });
    // Another check (here or on another replica) took this slot first; it settles within about a second.
    if (!claimed.affected) refuseWhileWaiting(1);
  }

  /** The account's row for `key`, created with no failures when there is none yet. */
  private async ensureRow(key: string): Promise<AuthThrottle> {
    const row = await this.rows.findOneBy({ key });
    if (row) return row;
    await this.rows.createQueryBuilder().insert().values({ key, failures: 0, lastFailureAt: 0 }).orIgnore().execute();
    return (
      (await this.rows.findOneBy({ key })) ?? {
        key,
        failures: 0,
        lastFailureAt: 0,
      }
    );
  }

  /** A login went through: guesses at the account start from nothing again. */
  async succeeded(userId: number): Promise<void> {
    await this.rows.delete([keyOf('password', userId), keyOf('totp', userId)]);
  }
}

function keyOf(step: Step, userId: number): string {
  return `${step}:${userId}`;
}

function refuseWhileWaiting(seconds: number): void {
  if (seconds > 0) {
    throw new PanelError('rate_limited', `Too many failed logins for this account; try again in ${seconds} s`, seconds);
  }
}
