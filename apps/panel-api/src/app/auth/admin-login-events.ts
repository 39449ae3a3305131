import { Injectable, Logger } from '@nestjs/common';

/** A successful admin login: who, from which client address, when. Never carries the password. */
export interface AdminLoginEvent {
  username: string;
  clientIp: string;
  at: Date;
}

export type AdminLoginListener = (event: AdminLoginEvent) => void | Promise<void>;

/** Tells subscribers (bot notifications) about successful admin logins without making login wait for them. */
@Injectable()
export class AdminLoginEvents {
  private readonly logger = new Logger(AdminLoginEvents.name);
  private readonly listeners = new Set<AdminLoginListener>();

  onLogin(listener: AdminLoginListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AdminLoginEvent): void {
    for (const listener of this.listeners) {
      void Promise.resolve()
        .then(() => listener(event))
        .catch((error: unknown) => this.logger.warn(`An admin login listener failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
}
