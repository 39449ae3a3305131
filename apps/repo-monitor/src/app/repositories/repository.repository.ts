import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, IsNull, Not } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { OutsideLinkPolicy } from '../common/outside-link';
import { clip, PayloadReader } from '../common/payload-reader';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { RepositoryEntity, RepositorySource, RepositoryStatus } from './repository.entity';

export interface RepositoryFilter {
  status?: RepositoryStatus;
  source?: RepositorySource;
  /** Text in owner/name, ignoring case. */
  text?: string;
}

/**
 * The watched repositories: the console's and the agents' reads, and the writes of processing and
 * GitHub polling (upsertFromGithub, markRemoved, markStaleRemoved, markBaselineImported), which run
 * inside the caller's transaction.
 */
@Injectable()
export class RepositoryRepository {
  private readonly links: OutsideLinkPolicy;

  constructor(
    private readonly database: DatabaseWork,
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
  ) {
    this.links = new OutsideLinkPolicy(config.github.webUrl);
  }

  private get store() {
    return this.database.dataSource.getRepository(RepositoryEntity);
  }

  /** By name. */
  async find(filter: RepositoryFilter, window: PageWindow): Promise<FoundRows<RepositoryEntity>> {
    const builder = this.store.createQueryBuilder('repository');
    if (filter.status) builder.andWhere('repository.status = :status', { status: filter.status });
    if (filter.source) builder.andWhere('repository.source = :source', { source: filter.source });
    whereContains(builder, ['repository.fullName'], filter.text);
    const [rows, total] = await builder.orderBy('repository.fullName', 'ASC').skip(window.skip).take(window.perPage).getManyAndCount();
    return { rows, total };
  }

  findById(id: number): Promise<RepositoryEntity | null> {
    return this.store.findOne({ where: { id } });
  }

  /** The id of the repository named `fullName` (owner/name, any case), if it is stored. */
  async idByName(fullName: string): Promise<number | undefined> {
    const rows = await this.store
      .createQueryBuilder('repository')
      .select(['repository.id'])
      .where('LOWER(repository.full_name) = :name', { name: fullName.toLowerCase() })
      .getMany();
    return rows[0]?.id;
  }

  /** owner/name of every stored repository, by id. */
  async namesById(): Promise<Map<number, string>> {
    const rows = await this.store.find({ select: { id: true, fullName: true } });
    return new Map(rows.map((row) => [row.id, row.fullName]));
  }

  /** Stores the changes made to `row` (its toggles or status), in one transaction. */
  async save(row: RepositoryEntity): Promise<RepositoryEntity> {
    return this.database.transaction((manager) => manager.save(row));
  }

  /** The repository stored under exactly `fullName`, read inside the caller's transaction (outside any when there is none). */
  findByName(manager: EntityManager | undefined, fullName: string): Promise<RepositoryEntity | null> {
    return (manager ?? this.database.dataSource.manager).getRepository(RepositoryEntity).findOne({ where: { fullName } });
  }

  /** How many repositories are watched now (status active). */
  countActive(): Promise<number> {
    return this.store.count({ where: { status: 'active' } });
  }

  /** How many external repositories are watched (removed ones do not count against the limit). */
  countExternal(manager: EntityManager): Promise<number> {
    return manager.getRepository(RepositoryEntity).count({ where: { source: 'external', status: Not('removed') } });
  }

  /** Active external repositories whose open issues and pull requests were never imported. */
  pendingExternalBaselines(): Promise<RepositoryEntity[]> {
    return this.store.find({ where: { source: 'external', status: 'active', baselineImportedAt: IsNull() } });
  }

  /** owner/name of every repository recorded for an installation. */
  async namesOfInstallation(manager: EntityManager, installationId: number): Promise<string[]> {
    const rows = await manager.getRepository(RepositoryEntity).find({ select: { fullName: true }, where: { installationId } });
    return rows.map((row) => row.fullName);
  }

  /** Creates or refreshes a repository from a GitHub repository object (webhook payload or API answer). */
  async upsertFromGithub(
    manager: EntityManager,
    repository: PayloadReader,
    options: { source: RepositorySource; installationId?: number | null; now: Date; reactivate?: boolean },
  ): Promise<RepositoryEntity | null> {
    const fullName = repository.get('full_name').string();
    if (!fullName) return null;
    const githubId = repository.get('id').number() ?? null;
    const store = manager.getRepository(RepositoryEntity);
    let row =
      (githubId !== null ? await store.findOne({ where: { githubId } }) : null) ?? (await store.findOne({ where: { fullName } }));
    const htmlUrl = this.links.accept(repository.get('html_url').value) ?? this.links.repositoryPage(clip(fullName, 255));
    if (!row) {
      row = store.create({
        githubId,
        fullName: clip(fullName, 255),
        htmlUrl: clip(htmlUrl, 512),
        private: repository.get('private').boolean() ?? false,
        source: options.source,
        installationId: options.installationId ?? null,
        status: 'active',
        createdAt: options.now,
        updatedAt: options.now,
      });
      return store.save(row);
    }
    let changed = false;
    const update = <K extends keyof RepositoryEntity>(key: K, value: RepositoryEntity[K]) => {
      if (row && row[key] !== value) {
        row[key] = value;
        changed = true;
      }
    };
    update('fullName', clip(fullName, 255));
    update('htmlUrl', clip(htmlUrl, 512));
    if (githubId !== null) update('githubId', githubId);
    const isPrivate = repository.get('private').boolean();
    if (isPrivate !== undefined) update('private', isPrivate);
    if (options.source === 'installation' && options.installationId) {
      update('installationId', options.installationId);
      update('source', 'installation');
      if (options.reactivate && row.status === 'removed') update('status', 'active');
    }
    if (changed) {
      row.updatedAt = options.now;
      await store.save(row);
    }
    return row;
  }

  /** Marks repositories no longer reachable through an installation as removed (history is kept). */
  async markRemoved(manager: EntityManager, fullNames: string[], now: Date): Promise<void> {
    if (fullNames.length === 0) return;
    await manager
      .createQueryBuilder()
      .update(RepositoryEntity)
      .set({ status: 'removed', updatedAt: now })
      .where('full_name IN (:...fullNames)', { fullNames })
      .andWhere("source = 'installation'")
      .execute();
  }

  /** Marks the installation's repositories that GitHub no longer lists (all but `keptIds`) as removed (history is kept). */
  async markStaleRemoved(manager: EntityManager, installationId: number, keptIds: readonly number[], now: Date): Promise<void> {
    const store = manager.getRepository(RepositoryEntity);
    const listed = await store.find({ where: { installationId, source: 'installation', status: Not('removed') } });
    for (const row of listed) {
      if (!keptIds.includes(row.id)) await store.update({ id: row.id }, { status: 'removed', updatedAt: now });
    }
  }

  /** Notes that the repository's open issues and pull requests were imported (its baseline). */
  async markBaselineImported(manager: EntityManager, id: number, now: Date): Promise<void> {
    await manager.getRepository(RepositoryEntity).update({ id }, { baselineImportedAt: now, updatedAt: now });
  }
}
