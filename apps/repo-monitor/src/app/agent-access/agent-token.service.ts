import { Inject, Injectable } from '@nestjs/common';
import { constantTimeEqual, deriveKey } from '@shared/crypto';
import { createHmac, randomUUID } from 'node:crypto';
import { AgentIdentity, AgentTokenVerifier } from '../admin/agent-token-verifier';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';

/** HKDF info of the agent token signing key; a different master key derives a different signing key. */
export const AGENT_TOKEN_KEY_INFO = 'repo-monitor agent token';
export const AGENT_TOKEN_LIFETIME_SECONDS = 3600;
export const AGENT_SCOPE = 'read';
/** Clock skew tolerated on `iat`. */
const SKEW_SECONDS = 60;

export interface IssuedAgentToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
}

export interface AgentTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  jti: string;
  iat: number;
  exp: number;
  scope: string;
  client_id: string;
}

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The protected resources under an issuer: the read API and the MCP endpoint. */
export type AgentResource = 'api' | 'mcp';

/** The resource identifier (RFC 8707, the token audience) of a protected resource under an issuer. */
export function agentAudience(issuer: string, resource: AgentResource = 'api'): string {
  return resource === 'mcp' ? `${issuer}/mcp` : `${issuer}/api/v1`;
}

/** Which resource a requested `resource` URL names under this issuer, or undefined when none of ours. */
export function agentResourceOf(issuer: string, requested: string): AgentResource | undefined {
  const trimmed = requested.replace(/\/+$/, '');
  if (trimmed === agentAudience(issuer, 'api')) return 'api';
  if (trimmed === agentAudience(issuer, 'mcp')) return 'mcp';
  return undefined;
}

/**
 * Issues and verifies the read-only agent tokens: HS256 JWTs (RFC 9068 shape) signed with a key
 * derived by HKDF from MONITOR_ENCRYPTION_KEY. The key is never published; rotating the master
 * key changes it, so every token issued before stops verifying.
 */
@Injectable()
export class AgentTokenService implements AgentTokenVerifier {
  private readonly signingKey: Buffer | undefined;

  constructor(@Inject(MONITOR_CONFIG) private readonly config: MonitorConfig) {
    this.signingKey = config.encryption.key ? deriveKey(config.encryption.key, AGENT_TOKEN_KEY_INFO) : undefined;
  }

  /** Whether tokens can be issued at all: a client secret and a master key are configured. */
  get configured(): boolean {
    return Boolean(this.config.oauth.clientSecret && this.signingKey);
  }

  get clientId(): string {
    return this.config.oauth.clientId;
  }

  /** Constant-time check of presented client credentials. */
  clientMatches(clientId: string, clientSecret: string): boolean {
    const expected = this.config.oauth.clientSecret;
    if (!expected) return false;
    const idMatches = constantTimeEqual(clientId, this.config.oauth.clientId);
    const secretMatches = constantTimeEqual(clientSecret, expected);
    return idMatches && secretMatches;
  }

  /**
   * A token for one issuer. Without a requested resource it is for the read API, which covers the
   * MCP endpoint too (the same reads); a token asked for the MCP resource is good there only.
   */
  issue(issuer: string, now = new Date(), resource: AgentResource = 'api'): IssuedAgentToken {
    if (!this.signingKey) throw new Error('agent tokens need MONITOR_ENCRYPTION_KEY');
    const iat = Math.floor(now.getTime() / 1000);
    const claims: AgentTokenClaims = {
      iss: issuer,
      sub: this.config.oauth.clientId,
      aud: agentAudience(issuer, resource),
      jti: randomUUID(),
      iat,
      exp: iat + AGENT_TOKEN_LIFETIME_SECONDS,
      scope: AGENT_SCOPE,
      client_id: this.config.oauth.clientId,
    };
    const unsigned = `${base64UrlJson({ alg: 'HS256', typ: 'at+jwt' })}.${base64UrlJson(claims)}`;
    return { accessToken: `${unsigned}.${this.sign(unsigned)}`, expiresIn: AGENT_TOKEN_LIFETIME_SECONDS, scope: AGENT_SCOPE };
  }

  async verify(token: string, issuer: string, resource: AgentResource = 'api'): Promise<AgentIdentity | null> {
    const claims = this.verifiedClaims(token, issuer, resource);
    return claims ? { clientId: claims.sub, scopes: claims.scope.split(' ') } : null;
  }

  /**
   * The claims of a valid, unexpired read token of the configured client, issued by `issuer` (the
   * one this service answers as now) for `resource`, else undefined. A token minted under another
   * Host or another public base URL does not verify here.
   */
  verifiedClaims(token: string, issuer: string, resource: AgentResource = 'api', now = new Date()): AgentTokenClaims | undefined {
    if (!this.signingKey || !this.config.oauth.clientSecret) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart, claimsPart, signature] = parts;
    if (!constantTimeEqual(signature, this.sign(`${headerPart}.${claimsPart}`))) return undefined;
    let header: { alg?: unknown; typ?: unknown };
    let claims: Partial<AgentTokenClaims>;
    try {
      header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as typeof header;
      claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as Partial<AgentTokenClaims>;
    } catch {
      return undefined;
    }
    if (header.alg !== 'HS256') return undefined;
    const seconds = Math.floor(now.getTime() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= seconds) return undefined;
    if (typeof claims.iat !== 'number' || claims.iat > seconds + SKEW_SECONDS || claims.exp - claims.iat > AGENT_TOKEN_LIFETIME_SECONDS) return undefined;
    if (claims.sub !== this.config.oauth.clientId || typeof claims.jti !== 'string') return undefined;
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(AGENT_SCOPE)) return undefined;
    if (claims.iss !== issuer) return undefined;
    const audiences = resource === 'mcp' ? [agentAudience(issuer, 'api'), agentAudience(issuer, 'mcp')] : [agentAudience(issuer, 'api')];
    if (typeof claims.aud !== 'string' || !audiences.includes(claims.aud)) return undefined;
    return claims as AgentTokenClaims;
  }

  private sign(unsigned: string): string {
    return createHmac('sha256', this.signingKey as Buffer).update(unsigned).digest('base64url');
  }
}
