import { Injectable } from '@nestjs/common';
import { EntityManager, LessThan } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { AdminSessionEntity } from './admin-session.entity';

/** The console's sessions (stored hashed). Statements run on their own unless the caller passes its transaction. */
@Injectable()
export class AdminSessionRepository {
  constructor(private readonly database: DatabaseWork) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.database.dataSource.manager;
  }

  async insert(session: AdminSessionEntity): Promise<void> {
    await this.manager().insert(AdminSessionEntity, session);
  }

  findByTokenHash(tokenHash: string): Promise<AdminSessionEntity | null> {
    return this.manager().findOne(AdminSessionEntity, { where: { tokenHash } });
  }

  /** The session with this id; throws when there is none. */
  get(id: string): Promise<AdminSessionEntity> {
    return this.manager().findOneOrFail(AdminSessionEntity, { where: { id } });
  }

  async touch(id: string, lastSeenAt: Date): Promise<void> {
    await this.manager().update(AdminSessionEntity, { id }, { lastSeenAt });
  }

  async delete(id: string): Promise<void> {
    await this.manager().delete(AdminSessionEntity, { id });
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.manager().delete(AdminSessionEntity, { expiresAt: LessThan(now) });
  }

  /** Signs out every session (the command-line password reset), inside the caller's transaction; answers how many. */
  async deleteAll(manager: EntityManager): Promise<number> {
    const result = await manager.createQueryBuilder().delete().from(AdminSessionEntity).execute();
    return result.affected ?? 0;
  }

  /** Signs out every session but `keepId` (after a password or second-factor change), inside the caller's transaction. */
  async deleteAllExcept(manager: EntityManager, keepId: string): Promise<void> {
    await manager.createQueryBuilder().delete().from(AdminSessionEntity).where('id != :keep', { keep: keepId }).execute();
  }
}
