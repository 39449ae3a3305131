import { Injectable } from '@nestjs/common';
import { interruptionOf } from './action-runner';

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  signal: AbortSignal;
  onAbort: () => void;
}

/**
 * One run per account at a time: `acquire` resolves in arrival order once the account is free (or
 * rejects when the run is cancelled while waiting), and remembers when each account's last run ended
 * for the per-account cooldown.
 */
@Injectable()
export class AccountRunLock {
  private readonly holders = new Set<string>();
  private readonly queues = new Map<string, Waiter[]>();
  private readonly lastEnded = new Map<string, number>();

  isBusy(accountName: string): boolean {
    return this.holders.has(accountName);
  }

  /** Milliseconds until the account's cooldown after its last run is over. */
  cooldownRemaining(accountName: string, cooldownMs: number): number {
    const ended = this.lastEnded.get(accountName);
    return ended === undefined ? 0 : Math.max(0, ended + cooldownMs - Date.now());
  }

  acquire(accountName: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(interruptionOf(signal));
    if (!this.holders.has(accountName)) {
      this.holders.add(accountName);
      return Promise.resolve(this.releaser(accountName));
    }
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(accountName) ?? [];
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(interruptionOf(signal));
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      queue.push(waiter);
      this.queues.set(accountName, queue);
    });
  }

  private releaser(accountName: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lastEnded.set(accountName, Date.now());
      const queue = this.queues.get(accountName) ?? [];
      const next = queue.shift();
      if (queue.length === 0) this.queues.delete(accountName);
      if (!next) {
        this.holders.delete(accountName);
        return;
      }
      next.signal.removeEventListener('abort', next.onAbort);
      next.resolve(this.releaser(accountName));
    };
  }
}
