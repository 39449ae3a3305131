import { createHmac } from 'node:crypto';
import { loadMonitorConfig } from '../config/monitor-config';
import { AgentTokenService } from './agent-token.service';

const KEY_A = 'a1'.repeat(32);
const KEY_B = 'b2'.repeat(32);
const SECRET = 'agent-client-secret-0123456789';
const ISSUER = 'https://monitor.example.test';

function service(env: Record<string, string> = {}): AgentTokenService {
  return new AgentTokenService(
    loadMonitorConfig({ env: { MONITOR_DATABASE_URL: 'file:/tmp/unused.db', MONITOR_ENCRYPTION_KEY: KEY_A, MONITOR_OAUTH_CLIENT_SECRET: SECRET, ...env } }),
  );
}

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('AgentTokenService', () => {
  it('issues a one-hour read token that verifies', async () => {
    const tokens = service();
    const issued = tokens.issue(ISSUER);
    expect(issued).toMatchObject({ expiresIn: 3600, scope: 'read' });
    expect(await tokens.verify(issued.accessToken, ISSUER)).toEqual({ clientId: 'repo-monitor-agent', scopes: ['read'] });
    expect(tokens.verifiedClaims(issued.accessToken, ISSUER)).toMatchObject({ iss: ISSUER, aud: `${ISSUER}/api/v1`, sub: 'repo-monitor-agent' });
  });

  it('rejects tokens after expiry, from another master key, or without a client secret', async () => {
    const issuedAt = new Date('2026-01-01T00:00:00Z');
    const token = service().issue(ISSUER, issuedAt).accessToken;
    expect(service().verifiedClaims(token, ISSUER, 'api', new Date(issuedAt.getTime() + 3599_000))).toBeDefined();
    expect(service().verifiedClaims(token, ISSUER, 'api', new Date(issuedAt.getTime() + 3600_000))).toBeUndefined();
    const fresh = service().issue(ISSUER).accessToken;
    expect(await service({ MONITOR_ENCRYPTION_KEY: KEY_B }).verify(fresh, ISSUER)).toBeNull();
    expect(await service({ MONITOR_ENCRYPTION_KEY: KEY_B, MONITOR_ENCRYPTION_KEY_PREVIOUS: KEY_A }).verify(fresh, ISSUER)).toBeNull();
    expect(await service({ MONITOR_OAUTH_CLIENT_SECRET: '' }).verify(fresh, ISSUER)).toBeNull();
    expect(await service({ MONITOR_OAUTH_CLIENT_ID: 'another-client' }).verify(fresh, ISSUER)).toBeNull();
    expect(await service().verify(fresh, 'https://other.example.test')).toBeNull();
  });

  it('rejects tampered claims, alg none and a token signed with the master key itself', async () => {
    const tokens = service();
    const [header, , signature] = tokens.issue(ISSUER).accessToken.split('.');
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: ISSUER, sub: 'repo-monitor-agent', aud: `${ISSUER}/api/v1`, jti: 'x', iat: now, exp: now + 3600, scope: 'read write' };
    expect(await tokens.verify(`${header}.${part(claims)}.${signature}`, ISSUER)).toBeNull();
    expect(await tokens.verify(`${part({ alg: 'none' })}.${part(claims)}.`, ISSUER)).toBeNull();
    const unsigned = `${part({ alg: 'HS256', typ: 'at+jwt' })}.${part({ ...claims, scope: 'read' })}`;
    const withMasterKey = createHmac('sha256', Buffer.from(KEY_A, 'hex')).update(unsigned).digest('base64url');
    expect(await tokens.verify(`${unsigned}.${withMasterKey}`, ISSUER)).toBeNull();
    expect(await tokens.verify('not-a-token', ISSUER)).toBeNull();
  });

  it('binds a token to its issuer and resource', async () => {
    const tokens = service();
    const forApi = tokens.issue(ISSUER).accessToken;
    const forMcp = tokens.issue(ISSUER, new Date(), 'mcp').accessToken;
    expect(await tokens.verify(forApi, ISSUER, 'mcp')).not.toBeNull();
    expect(await tokens.verify(forMcp, ISSUER, 'mcp')).not.toBeNull();
    expect(await tokens.verify(forMcp, ISSUER, 'api')).toBeNull();
    const foreign = tokens.issue('http://evil.example').accessToken;
    expect(await tokens.verify(foreign, ISSUER)).toBeNull();
    expect(await tokens.verify(foreign, 'http://evil.example')).not.toBeNull();
  });

  it('compares client credentials exactly', () => {
    const tokens = service();
    expect(tokens.clientMatches('repo-monitor-agent', SECRET)).toBe(true);
    expect(tokens.clientMatches('repo-monitor-agent', `${SECRET}x`)).toBe(false);
    expect(tokens.clientMatches('repo-monitor-agentx', SECRET)).toBe(false);
    expect(service({ MONITOR_OAUTH_CLIENT_SECRET: '' }).configured).toBe(false);
  });
});
