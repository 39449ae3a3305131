import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { clip, PayloadReader } from '../common/payload-reader';
import { InstallationEntity } from './installation.entity';

/**
 * The GitHub App's installations: the console's and agents' list, and what installation webhooks and
 * GitHub polling record (inside the caller's transaction).
 */
@Injectable()
export class InstallationRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** In the order they were first seen. */
  async find(window: PageWindow): Promise<FoundRows<InstallationEntity>> {
    const [rows, total] = await this.database.dataSource
      .getRepository(InstallationEntity)
      .findAndCount({ order: { id: 'ASC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }

  /** How many installations are in place (not removed). */
  countActive(): Promise<number> {
    return this.database.dataSource.getRepository(InstallationEntity).count({ where: { removedAt: IsNull() } });
  }

  /** Creates or refreshes an installation from the GitHub API's installation object (found again: not removed). */
  async upsertFromGithub(manager: EntityManager, reader: PayloadReader, now: Date): Promise<void> {
    const installationId = reader.get('id').number();
    if (installationId === undefined) return;
    const store = manager.getRepository(InstallationEntity);
    const existing = await store.findOne({ where: { installationId } });
    const row =
      existing ??
      store.create({
        installationId,
        accountLogin: clip(reader.path('account', 'login').string() ?? 'unknown', 255),
        accountType: clip(reader.path('account', 'type').string() ?? 'User', 32),
        suspended: false,
        removedAt: null,
        lastReconciledAt: null,
        createdAt: now,
      });
    row.repositorySelection = reader.get('repository_selection').string() ?? row.repositorySelection ?? 'selected';
    row.suspended = reader.get('suspended_at').exists;
    row.removedAt = null;
    row.updatedAt = now;
    await store.save(row);
  }

  /** Notes that the installation's repositories were just compared with GitHub's list. */
  async markReconciled(manager: EntityManager, installationId: number, now: Date): Promise<void> {
    await manager.getRepository(InstallationEntity).update({ installationId }, { lastReconciledAt: now, updatedAt: now });
  }

  /**
   * Records an `installation` webhook's action on the installation object it carries: `created`
   * (found again: not removed), `deleted` (removed), `suspend`, `unsuspend`; any other action only
   * refreshes the repository selection.
   */
  async recordWebhookAction(manager: EntityManager, installation: PayloadReader, action: string, now: Date): Promise<void> {
    const installationId = installation.get('id').number();
    if (installationId === undefined) return;
    const store = manager.getRepository(InstallationEntity);
    const row =
      (await store.findOne({ where: { installationId } })) ??
      store.create({
        installationId,
        accountLogin: clip(installation.path('account', 'login').string() ?? 'unknown', 255),
        accountType: clip(installation.path('account', 'type').string() ?? 'User', 32),
        repositorySelection: installation.get('repository_selection').string() ?? 'selected',
        suspended: false,
        removedAt: null,
        lastReconciledAt: null,
        createdAt: now,
        updatedAt: now,
      });
    row.updatedAt = now;
    row.repositorySelection = installation.get('repository_selection').string() ?? row.repositorySelection;
    if (action === 'deleted') row.removedAt = now;
    if (action === 'suspend') row.suspended = true;
    if (action === 'unsuspend') row.suspended = false;
    if (action === 'created') row.removedAt = null;
    await store.save(row);
  }
}
