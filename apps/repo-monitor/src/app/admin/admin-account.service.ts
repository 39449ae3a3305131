import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { hashPassword, verifyPassword } from '@shared/crypto';
import { DatabaseWork } from '../../database/database-work';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SecretCipher } from '../settings/secret-cipher';
import { AdminAccountEntity } from './admin-account.entity';
import { AdminAccountRepository } from './admin-account.repository';
import { AdminSessionRepository } from './admin-session.repository';
import { AuditLogService } from './audit-log.service';
import type { PasswordAttempt } from './login-throttle';
import { passwordRuleDetails, passwordRuleViolation } from './password-rule';
import { TotpVerifier } from './totp-verifier';

const totpAssociatedData = (id: number) => `admin_account.totp_secret:${id}`;

// Verified when the user name is unknown, so a wrong name costs as much time as a wrong password.
const DECOY_HASH = '$argon2id$v=19$m=65536,p=4,t=3$QzdyAiO+HYjwJe2R5dH+eA$Cam8W415UzC3ZGs3zttmcPn4uxZ1ZG8TE1qv0advykM';

/**
 * The single admin account: created from MONITOR_ADMIN_USERNAME/PASSWORD at first start (never
 * overwriting an existing one) or by web setup; verifies logins and changes the password.
 */
@Injectable()
export class AdminAccountService implements OnModuleInit {
  private readonly logger = new Logger(AdminAccountService.name);

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly database: DatabaseWork,
    private readonly accounts: AdminAccountRepository,
    private readonly sessions: AdminSessionRepository,
    private readonly audit: AuditLogService,
    private readonly cipher: SecretCipher,
    private readonly totp: TotpVerifier,
  ) {}

  async onModuleInit(): Promise<void> {
    const { username, password } = this.config.admin;
    if (!username || !password) return;
    const created = await this.create(username, password, 'bootstrap');
    if (created) this.logger.log(`created the admin account "${username}" from MONITOR_ADMIN_USERNAME`);
  }

  exists(): Promise<boolean> {
    return this.accounts.exists();
  }

  find(): Promise<AdminAccountEntity | null> {
    return this.accounts.find();
  }

  /** Web setup: creates the admin or answers 404 when one exists. */
  async setup(username: string, password: string, clientIp: string): Promise<void> {
    const violation = passwordRuleViolation(password);
    if (violation) throw new MonitorError('validation_failed', violation, passwordRuleDetails(password, 'password'));
    if (!(await this.create(username, password, 'setup', clientIp))) {
      throw new MonitorError('not_found', 'setup is complete: an admin account exists');
    }
  }

  /** The account when the user name and password match, otherwise null (in constant-ish time). */
  async verify(username: string, password: string): Promise<AdminAccountEntity | null> {
    const account = await this.find();
    if (!account || account.username !== username) {
      await verifyPassword(DECOY_HASH, password);
      return null;
    }
    return (await verifyPassword(account.passwordHash, password)) ? account : null;
  }

  /** Changes the password after checking the current one; other sessions are signed out. */
  async changePassword(
    currentPassword: string,
    newPassword: string,
    keepSessionId: string,
    clientIp: string,
    attempt: PasswordAttempt,
  ): Promise<void> {
    const account = await this.find();
    if (!account || !(await verifyPassword(account.passwordHash, currentPassword))) {
      attempt.failed();
      throw new MonitorError('invalid_credentials', 'the current password is wrong');
    }
    attempt.succeeded();
    const violation = passwordRuleViolation(newPassword);
    if (violation) throw new MonitorError('validation_failed', violation, passwordRuleDetails(newPassword, 'new_password'));
    const passwordHash = await hashPassword(newPassword);
    await this.database.transaction(async (manager) => {
      await this.accounts.update(manager, { passwordHash, updatedAt: new Date() });
      await this.sessions.deleteAllExcept(manager, keepSessionId);
      await this.audit.record({ actor: account.username, action: 'admin.password_changed', clientIp }, manager);
    });
  }

  /** Whether a code is asked at sign-in, and whether a secret from setup waits to be turned on. */
  async totpStatus(): Promise<{ totp_enabled: boolean; setup_pending: boolean }> {
    const account = await this.find();
    return { totp_enabled: account?.totpEnabled ?? false, setup_pending: Boolean(account && !account.totpEnabled && account.totpSecret) };
  }

  /** A TOTP code of the account's secret (each code works once). */
  totpCodeMatches(account: AdminAccountEntity, code: string): boolean {
    if (!account.totpSecret) return false;
    return this.totp.verify(this.cipher.open(account.totpSecret, totpAssociatedData(account.id)), code);
  }

  /**
   * A new TOTP secret, stored encrypted and not yet in force (turn it on with enableTotp); an
   * earlier pending secret is replaced. 409 while TOTP is on.
   */
  async setupTotp(clientIp: string): Promise<{ secret: string; otpauth_uri: string }> {
    const account = await this.requireAccount();
    if (account.totpEnabled) throw new MonitorError('conflict', 'the second factor is already on; turn it off first to set up a new one');
    const secret = this.totp.generateSecret();
    const sealed = this.cipher.seal(secret, totpAssociatedData(account.id));
    await this.database.transaction(async (manager) => {
      await this.accounts.update(manager, { totpSecret: sealed, updatedAt: new Date() });
      await this.audit.record({ actor: account.username, action: 'admin.totp_setup_started', clientIp }, manager);
    });
    return { secret, otpauth_uri: this.totp.keyUri(account.username, secret) };
  }

  /** Turns TOTP on with the current password and a code of the pending secret; other sessions are signed out. */
  async enableTotp(currentPassword: string, code: string, keepSessionId: string, clientIp: string, attempt: PasswordAttempt): Promise<void> {
    const account = await this.requireAccount();
    if (account.totpEnabled) throw new MonitorError('conflict', 'the second factor is already on');
    if (!account.totpSecret) throw new MonitorError('conflict', 'set up the second factor first: POST /api/v1/auth/totp/setup');
    await this.checkPasswordAndCode(account, currentPassword, code, attempt);
    await this.database.transaction(async (manager) => {
      await this.accounts.update(manager, { totpEnabled: true, updatedAt: new Date() });
      await this.sessions.deleteAllExcept(manager, keepSessionId);
      await this.audit.record({ actor: account.username, action: 'admin.totp_enabled', clientIp }, manager);
    });
  }

  /** Turns TOTP off with the current password and a current code. */
  async disableTotp(currentPassword: string, code: string, clientIp: string, attempt: PasswordAttempt): Promise<void> {
    const account = await this.requireAccount();
    if (!account.totpEnabled) throw new MonitorError('conflict', 'the second factor is not on');
    await this.checkPasswordAndCode(account, currentPassword, code, attempt);
    await this.database.transaction(async (manager) => {
      await this.accounts.update(manager, { totpEnabled: false, totpSecret: null, updatedAt: new Date() });
      await this.audit.record({ actor: account.username, action: 'admin.totp_disabled', clientIp }, manager);
    });
  }

  /** Both must be right; either wrong counts one failure towards the throttle. */
  private async checkPasswordAndCode(account: AdminAccountEntity, password: string, code: string, attempt: PasswordAttempt): Promise<void> {
    if (!(await verifyPassword(account.passwordHash, password))) {
      attempt.failed();
      throw new MonitorError('invalid_credentials', 'the current password is wrong', { field: 'current_password' });
    }
    if (!this.totpCodeMatches(account, code)) {
      attempt.failed();
      throw new MonitorError('validation_failed', 'the code is wrong or was already used; enter the code your authenticator app shows now', { field: 'code', rule: 'totp_wrong' });
    }
    attempt.succeeded();
  }

  private async requireAccount(): Promise<AdminAccountEntity> {
    const account = await this.find();
    if (!account) throw new MonitorError('unauthorized', 'session is no longer valid');
    return account;
  }

  private async create(username: string, password: string, how: 'bootstrap' | 'setup', clientIp?: string): Promise<boolean> {
    const passwordHash = await hashPassword(password);
    try {
      return await this.database.transaction(async (manager) => {
        if (!(await this.accounts.createIfNone(manager, { username, passwordHash }, new Date()))) return false;
        await this.audit.record({ actor: username, action: `admin.created_by_${how}`, clientIp }, manager);
        return true;
      });
    } catch (error) {
      // Two instances starting at once: the primary key keeps the first admin, the second insert loses.
      if (await this.exists()) return false;
      throw error;
    }
  }
}
