import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { ADMIN_ACCOUNT_ID, AdminAccountEntity } from './admin-account.entity';

/** What changes on the admin account after it is created. */
export type AdminAccountChanges = Partial<Pick<AdminAccountEntity, 'passwordHash' | 'totpSecret' | 'totpEnabled'>> & Pick<AdminAccountEntity, 'updatedAt'>;

/** The single admin account row (id 1); writes run inside the caller's transaction, with its audit entry. */
@Injectable()
export class AdminAccountRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Whether the admin account exists (inside `manager`'s transaction when given). */
  async exists(manager: EntityManager = this.database.dataSource.manager): Promise<boolean> {
    return (await manager.count(AdminAccountEntity)) > 0;
  }

  /** The admin account, if created (inside `manager`'s transaction when given). */
  find(manager: EntityManager = this.database.dataSource.manager): Promise<AdminAccountEntity | null> {
    return manager.findOne(AdminAccountEntity, { where: { id: ADMIN_ACCOUNT_ID } });
  }

  /**
   * Creates the admin account unless one exists; false when one does. Two callers at once: the
   * primary key keeps the first, the second insert fails.
   */
  async createIfNone(manager: EntityManager, account: Pick<AdminAccountEntity, 'username' | 'passwordHash'>, now: Date): Promise<boolean> {
    if (await this.exists(manager)) return false;
    await manager.insert(AdminAccountEntity, { id: ADMIN_ACCOUNT_ID, ...account, totpSecret: null, totpEnabled: false, createdAt: now, updatedAt: now });
    return true;
  }

  async update(manager: EntityManager, changes: AdminAccountChanges): Promise<void> {
    await manager.update(AdminAccountEntity, { id: ADMIN_ACCOUNT_ID }, changes);
  }
}
