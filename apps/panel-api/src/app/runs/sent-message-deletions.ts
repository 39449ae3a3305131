import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { ChatId } from '../sign-tasks/sign-task.types';
import { RUN_TIMINGS, RunTimings } from './run-timings';

export interface SentMessageDeletion {
  accountName: string;
  taskName: string;
  runId: string;
  chatId: ChatId;
  messageIds: number[];
  /** The chat's `delete_after`. */
  delaySeconds: number;
}

/**
 * `delete_after` of a task chat: the messages a run sent in that chat are deleted for everyone
 * (revoke) that many seconds after the chat's actions ran, like the panel users migrate from, which
 * deletes only what the account sent and leaves the bot's replies. The run does not wait for it: each
 * deletion is an in-process timer, so a run with `delete_after: 86400` finishes (and frees its
 * account) at once. Pending deletions live only in memory: when the process stops before they are
 * due they are skipped (logged at shutdown), and the messages stay.
 */
@Injectable()
export class SentMessageDeletions implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SentMessageDeletions.name);
  private readonly pending = new Map<NodeJS.Timeout, SentMessageDeletion & { dueAt: number }>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly counts = { deleted_messages: 0, failed_deletions: 0 };

  constructor(
    private readonly sessions: AccountSessionsService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
  ) {}

  onModuleInit(): void {
    this.runtimeStatus.register('sent_message_deletions', () => ({
      state: this.pending.size > 0 || this.inFlight.size > 0 ? 'running' : 'idle',
      details: {
        pending: this.pending.size,
        next_due_at: this.pending.size ? new Date(Math.min(...[...this.pending.values()].map((p) => p.dueAt))).toISOString() : null,
        ...this.counts,
      },
    }));
  }

  async onModuleDestroy(): Promise<void> {
    if (this.pending.size) {
      const messages = [...this.pending.values()].reduce((sum, p) => sum + p.messageIds.length, 0);
      this.logger.warn(`Stopping with ${this.pending.size} pending delete_after deletion(s) (${messages} message(s)); they are skipped and the messages stay`);
    }
    for (const timer of this.pending.keys()) clearTimeout(timer);
    this.pending.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /** How many deletions are waiting for their time. */
  pendingCount(): number {
    return this.pending.size;
  }

  schedule(deletion: SentMessageDeletion): void {
    if (deletion.messageIds.length === 0) return;
    const delayMs = Math.max(0, deletion.delaySeconds * 1000);
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      const work = this.delete(deletion).finally(() => this.inFlight.delete(work));
      this.inFlight.add(work);
    }, delayMs);
    timer.unref();
    this.pending.set(timer, { ...deletion, messageIds: [...deletion.messageIds], dueAt: Date.now() + delayMs });
  }

  private async delete(deletion: SentMessageDeletion): Promise<void> {
    const what = `${deletion.messageIds.length} message(s) of run ${deletion.runId} (${deletion.taskName}) in ${deletion.chatId} as ${deletion.accountName}`;
    try {
      const session = this.sessions.sessionFor(deletion.accountName);
      await this.sessions.gateway.deleteMessages(session, deletion.chatId, deletion.messageIds, { timeoutMs: this.timings.telegramCallTimeoutMs });
      this.counts.deleted_messages += deletion.messageIds.length;
      this.logger.log(`Deleted ${what} (delete_after ${deletion.delaySeconds} s)`);
    } catch (error) {
      this.counts.failed_deletions += 1;
      this.logger.warn(`Could not delete ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
