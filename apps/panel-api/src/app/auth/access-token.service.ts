import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, createSecretKey, randomUUID } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { AdminUser } from './entities/admin-user.entity';
import { RevokedToken } from './entities/revoked-token.entity';
import { loadOrCreateJwtSecret } from './jwt-secret';
import { PanelError } from '../common/panel-error';

/** Who made an authenticated request. */
export interface AuthenticatedAdmin {
  id: number;
  username: string;
  /** The id (`jti`) of the access token the request carried, and when that token expires (ms since the epoch). */
  tokenId: string;
  expiresAtMs: number;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

interface AccessTokenClaims {
  sub: string;
  /** The user's token_version when the token was issued. */
  ver: number;
  /** This token's own id, so that logging out can revoke just it. */
  jti: string;
}

const ALGORITHM = 'HS256';

function isTokenId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value);
}

/** Issues and checks the panel's JWT access tokens (HS256). */
@Injectable()
export class AccessTokenService implements OnModuleInit {
  private signer?: JwtService;
  private forwardingKey?: Buffer;
  private readonly jwt = new JwtService();

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    @InjectRepository(RevokedToken) private readonly revoked: Repository<RevokedToken>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.signing();
    await this.pruneRevocations();
  }

  get lifetimeSeconds(): number {
    return this.config.auth.accessTokenTtlHours * 3600;
  }

  async issue(user: AdminUser): Promise<IssuedToken> {
    const claims: AccessTokenClaims = { sub: String(user.id), ver: user.tokenVersion, jti: randomUUID() };
    const token = await this.signing().signAsync(claims, { algorithm: ALGORITHM, expiresIn: this.lifetimeSeconds });
    return { access_token: token, token_type: 'bearer', expires_in: this.lifetimeSeconds };
  }

  /** The admin a token belongs to; 401 when it is malformed, expired, badly signed or older than the last credential change. */
  async verify(token: string): Promise<AuthenticatedAdmin> {
    let claims: AccessTokenClaims & { exp?: unknown };
    try {
      claims = await this.signing().verifyAsync<AccessTokenClaims & { exp?: unknown }>(token, { algorithms: [ALGORITHM] });
    } catch {
      throw new PanelError('unauthorized', 'Invalid or expired access token');
    }
    // Every token this service issues expires; one without `exp` would be valid forever.
    if (typeof claims.exp !== 'number') throw new PanelError('unauthorized', 'Invalid access token (no expiry)');
    const id = Number(claims.sub);
    // Tokens of earlier versions carry no jti and could not be logged out: they are refused too.
    if (!Number.isSafeInteger(id) || typeof claims.ver !== 'number' || !isTokenId(claims.jti)) throw new PanelError('unauthorized', 'Invalid access token');
    const user = await this.users.findOneBy({ id });
    if (!user || user.tokenVersion !== claims.ver || (await this.revoked.existsBy({ jti: claims.jti }))) {
      throw new PanelError('unauthorized', 'Access token is no longer valid; log in again');
    }
    return { id: user.id, username: user.username, tokenId: claims.jti, expiresAtMs: claims.exp * 1000 };
  }

  /**
   * Logs one token out: its id goes into `revoked_tokens` until the token would have expired, and
   * every later request with it answers 401 on every replica. Revocations past their expiry are
   * pruned on the way.
   */
  async revoke(admin: AuthenticatedAdmin): Promise<void> {
    await this.revoked.createQueryBuilder().insert().values({ jti: admin.tokenId, expiresAt: admin.expiresAtMs }).orIgnore().execute();
    await this.pruneRevocations();
  }

  /** Forgets revocations of tokens that have expired anyway. */
  async pruneRevocations(): Promise<void> {
    await this.revoked.delete({ expiresAt: LessThan(Date.now()) });
  }

  /**
   * Who holds a token the guard has already verified, its token_version and when it expires (ms
   * since the epoch; undefined without `exp`). For long-lived requests that must end on revocation.
   */
  holderOf(token: string): { userId: number; tokenVersion: number; tokenId?: string; expiresAtMs?: number } | undefined {
    const claims = this.jwt.decode<(AccessTokenClaims & { exp?: number }) | null>(token);
    if (!claims || typeof claims.ver !== 'number') return undefined;
    const userId = Number(claims.sub);
    if (!Number.isSafeInteger(userId)) return undefined;
    return { userId, tokenVersion: claims.ver, tokenId: isTokenId(claims.jti) ? claims.jti : undefined, expiresAtMs: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined };
  }

  /**
   * Signs and verifies with the secret as a KeyObject, made once: given a string, jsonwebtoken first
   * tries to parse it as a PEM public key on every verification, and that failed parse (an OpenSSL
   * call and a thrown error) was the largest single cost of an authenticated request (about 0.3 ms).
   */
  private signing(): JwtService {
    if (!this.signer) {
      this.dataDirectory.prepare();
      const secret = loadOrCreateJwtSecret(this.dataDirectory.jwtSecretFile, this.config.auth.jwtSecret);
      this.signer = new JwtService({ secret: createSecretKey(Buffer.from(secret)) });
      this.forwardingKey = createHmac('sha256', secret).update('panel-api replica forwarding v1').digest();
    }
    return this.signer;
  }

  /**
   * The key replicas sign the requests they forward to each other with (cluster/owner-forwarding.ts):
   * derived from the JWT secret, which every replica shares, so no other setting is needed.
   */
  replicaForwardingKey(): Buffer {
    this.signing();
    return this.forwardingKey as Buffer;
  }
}
