import { hashPassword } from '@shared/crypto';
import { DataSource } from 'typeorm';
import { AdminAccountRepository } from '../app/admin/admin-account.repository';
import { AdminSessionRepository } from '../app/admin/admin-session.repository';
import { AuditLogRepository } from '../app/admin/audit-log.repository';
import { passwordRuleViolation } from '../app/admin/password-rule';
import { MonitorConfig } from '../app/config/monitor-config';
import { dataSourceOptions } from '../database/data-source-options';
import { DatabaseWork } from '../database/database-work';

export class ResetPasswordError extends Error {
  constructor(
    readonly code: 'validation_failed' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export interface ResetPasswordResult {
  username: string;
  sessionsRevoked: number;
  /** The second factor was on and is now off (a lost authenticator is a reason to reset). */
  totpDisabled: boolean;
}

/** The password piped on stdin: one line, the trailing newline removed. */
export function passwordFromStdin(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/**
 * Sets a new admin password directly in the database (migrating it first), turns the second factor
 * off, signs out every session and records the reset in the audit log, all in one transaction.
 */
export async function resetAdminPassword(config: MonitorConfig, password: string): Promise<ResetPasswordResult> {
  const violation = passwordRuleViolation(password);
  if (violation) throw new ResetPasswordError('validation_failed', violation);
  const passwordHash = await hashPassword(password);
  const dataSource = new DataSource(dataSourceOptions(config.database));
  // dataSourceOptions sets migrationsRun, so initialize() brings the schema up to date first.
  await dataSource.initialize();
  try {
    // The service's own repositories, outside Nest: the same statements the console runs.
    const database = new DatabaseWork(dataSource);
    const accounts = new AdminAccountRepository(database);
    const sessions = new AdminSessionRepository(database);
    const audit = new AuditLogRepository(database);
    return await database.transaction(async (manager) => {
      const account = await accounts.find(manager);
      if (!account) {
        throw new ResetPasswordError('not_found', 'no admin account exists yet; create it with web setup or MONITOR_ADMIN_USERNAME and MONITOR_ADMIN_PASSWORD');
      }
      const now = new Date();
      await accounts.update(manager, { passwordHash, totpEnabled: false, totpSecret: null, updatedAt: now });
      const sessionsRevoked = await sessions.deleteAll(manager);
      await audit.insert(
        { createdAt: now, actor: 'cli', action: 'admin.password_reset', target: account.username, details: JSON.stringify({ totp_disabled: account.totpEnabled }), clientIp: null },
        manager,
      );
      return { username: account.username, sessionsRevoked, totpDisabled: account.totpEnabled };
    });
  } finally {
    await dataSource.destroy();
  }
}
