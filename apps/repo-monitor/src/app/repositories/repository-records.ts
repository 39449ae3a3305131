import { EntityManager } from 'typeorm';
import { clip, PayloadReader } from '../processing/payload-reader';
import { RepositoryEntity, RepositorySource } from './repository.entity';

/** Creates or refreshes a repository from a GitHub repository object (webhook payload or API answer). */
export async function upsertRepository(
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
  const htmlUrl = repository.get('html_url').string() ?? `https://github.com/${fullName}`;
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
export async function markRepositoriesRemoved(manager: EntityManager, fullNames: string[], now: Date): Promise<void> {
  if (fullNames.length === 0) return;
  await manager
    .createQueryBuilder()
    .update(RepositoryEntity)
    .set({ status: 'removed', updatedAt: now })
    .where('full_name IN (:...fullNames)', { fullNames })
    .andWhere("source = 'installation'")
    .execute();
}
