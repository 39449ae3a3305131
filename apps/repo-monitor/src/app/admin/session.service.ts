import { Inject, Injectable } from '@nestjs/common';
import { constantTimeEqual, randomToken } from '@shared/crypto';
import { createHash, randomUUID } from 'node:crypto';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { AdminSessionEntity } from './admin-session.entity';
import { AdminSessionRepository } from './admin-session.repository';

export interface IssuedSession {
  id: string;
  /** The cookie value; only its hash is stored. */
  token: string;
  /** The X-CSRF-Token value the console must send on writes; only its hash is stored. */
  csrfToken: string;
  expiresAt: Date;
}

// last_seen_at is refreshed at most this often, so reads do not turn into a write each.
const LAST_SEEN_RESOLUTION_MS = 60_000;

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Admin sessions stored hashed, with a fixed lifetime of MONITOR_ADMIN_SESSION_TTL. */
@Injectable()
export class SessionService {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly sessions: AdminSessionRepository,
  ) {}

  get ttlMs(): number {
    return this.config.admin.sessionTtlMs;
  }

  async issue(clientIp: string | undefined, userAgent: string | undefined): Promise<IssuedSession> {
    const now = new Date();
    await this.sessions.deleteExpired(now);
    const session: IssuedSession = {
      id: randomUUID(),
      token: randomToken(32),
      csrfToken: randomToken(32),
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
    await this.sessions.insert({
      id: session.id,
      tokenHash: sha256Hex(session.token),
      csrfHash: sha256Hex(session.csrfToken),
      createdAt: now,
      expiresAt: session.expiresAt,
      lastSeenAt: now,
      clientIp: clientIp?.slice(0, 64) ?? null,
      userAgent: userAgent?.slice(0, 255) ?? null,
    });
    return session;
  }

  /** The live session a cookie token names, or null (expired sessions are removed). */
  async resolve(token: string): Promise<AdminSessionEntity | null> {
    if (!token || token.length > 128) return null;
    const session = await this.sessions.findByTokenHash(sha256Hex(token));
    if (!session) return null;
    const now = Date.now();
    if (session.expiresAt.getTime() <= now) {
      await this.revoke(session.id);
      return null;
    }
    if (now - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await this.sessions.touch(session.id, new Date(now));
    }
    return session;
  }

  /** The session the current request authenticated with (it was resolved moments ago, so it exists). */
  current(id: string): Promise<AdminSessionEntity> {
    return this.sessions.get(id);
  }

  csrfMatches(session: AdminSessionEntity, header: string | undefined): boolean {
    if (!header || header.length > 128) return false;
    return constantTimeEqual(sha256Hex(header), session.csrfHash);
  }

  async revoke(id: string): Promise<void> {
    await this.sessions.delete(id);
  }
}
