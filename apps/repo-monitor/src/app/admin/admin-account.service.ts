import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hashPassword, verifyPassword } from '@shared/crypto';
import { DataSource, EntityManager } from 'typeorm';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { ADMIN_ACCOUNT_ID, AdminAccountEntity } from './admin-account.entity';
import { AdminSessionEntity } from './admin-session.entity';
import { AuditLogService } from './audit-log.service';
import type { PasswordAttempt } from './login-throttle';
import { passwordRuleViolation } from './password-rule';

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
  ) {}

  async onModuleInit(): Promise<void> {
    const { username, password } = this.config.admin;
    if (!username || !password) return;
    const created = await this.create(username, password, 'bootstrap');
    if (created) this.logger.log(`created the admin account "${username}" from MONITOR_ADMIN_USERNAME`);
  }

  async exists(): Promise<boolean> {
    return (await this.dataSource.manager.count(AdminAccountEntity)) > 0;
  }

  async find(): Promise<AdminAccountEntity | null> {
    return this.dataSource.manager.findOne(AdminAccountEntity, { where: { id: ADMIN_ACCOUNT_ID } });
  }

  /** Web setup: creates the admin or answers 404 when one exists. */
  async setup(username: string, password: string, clientIp: string): Promise<void> {
    const violation = passwordRuleViolation(password);
    if (violation) throw new MonitorError('validation_failed', violation, { field: 'password' });
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
    if (violation) throw new MonitorError('validation_failed', violation, { field: 'new_password' });
    const passwordHash = await hashPassword(newPassword);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(AdminAccountEntity, { id: ADMIN_ACCOUNT_ID }, { passwordHash, updatedAt: new Date() });
      await manager
        .createQueryBuilder()
        .delete()
        .from(AdminSessionEntity)
        .where('id != :keep', { keep: keepSessionId })
        .execute();
      await this.audit.record({ actor: account.username, action: 'admin.password_changed', clientIp }, manager);
    });
  }

  private async create(username: string, password: string, how: 'bootstrap' | 'setup', clientIp?: string): Promise<boolean> {
    const passwordHash = await hashPassword(password);
    try {
      return await this.dataSource.transaction(async (manager: EntityManager) => {
        if ((await manager.count(AdminAccountEntity)) > 0) return false;
        const now = new Date();
        await manager.insert(AdminAccountEntity, { id: ADMIN_ACCOUNT_ID, username, passwordHash, createdAt: now, updatedAt: now });
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
