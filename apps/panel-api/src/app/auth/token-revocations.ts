import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntitySubscriberInterface, RemoveEvent, UpdateEvent } from 'typeorm';
import { ClusterEvents } from '../cluster/cluster-events';
import { AdminUser } from './entities/admin-user.entity';

/**
 * A change to an admin row: `tokenVersion` is the new version (tokens carrying another one are
 * revoked), or undefined when it is not known (the row was removed, or updated without the entity
 * at hand) and holders must check their token again. No `userId`: any admin may have changed.
 */
export interface TokenRevocation {
  userId?: number;
  tokenVersion?: number;
  /** One token logged out (its `jti`): only its holders end. */
  tokenId?: string;
}

export type TokenRevocationListener = (revocation: TokenRevocation) => void;

/**
 * Tells long-lived holders of a token (the event streams) the moment an admin row changes, so a
 * password change closes them at once instead of at their next periodic check. It watches the
 * `admin_users` entity itself (a TypeORM subscriber), so every path that raises token_version
 * through the repository is covered, whoever writes it.
 */
@Injectable()
export class TokenRevocations implements EntitySubscriberInterface<AdminUser> {
  private readonly logger = new Logger(TokenRevocations.name);
  private readonly listeners = new Set<TokenRevocationListener>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly cluster: ClusterEvents,
  ) {
    dataSource.subscribers.push(this);
    // Replicas: a revocation on another replica ends this replica's holders too, as it happens.
    cluster.onRemoteTokenRevocation((revocation) => this.tell(revocation));
  }

  /** A logout: the token with this id is revoked (already written to `revoked_tokens`). */
  tokenRevoked(tokenId: string): void {
    this.emit({ tokenId });
  }

  listenTo(): typeof AdminUser {
    return AdminUser;
  }

  onRevocation(listener: TokenRevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  afterUpdate(event: UpdateEvent<AdminUser>): void {
    const entity = event.entity as Partial<AdminUser> | undefined;
    const userId = entity?.id ?? (event.databaseEntity as AdminUser | undefined)?.id;
    if (userId === undefined) {
      // An update by criteria: who and what changed is unknown; every holder checks again.
      this.emit({});
      return;
    }
    this.emit({ userId, tokenVersion: typeof entity?.tokenVersion === 'number' ? entity.tokenVersion : undefined });
  }

  afterRemove(event: RemoveEvent<AdminUser>): void {
    const userId = event.entityId ?? event.entity?.id ?? event.databaseEntity?.id;
    this.emit(typeof userId === 'number' ? { userId } : {});
  }

  private emit(revocation: TokenRevocation): void {
    this.tell(revocation);
    void this.cluster.announceTokenRevocation(revocation);
  }

  private tell(revocation: TokenRevocation): void {
    for (const listener of this.listeners) {
      try {
        listener(revocation);
      } catch (error) {
        this.logger.warn(`A token revocation listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
