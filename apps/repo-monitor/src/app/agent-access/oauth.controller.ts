import { ApiErrorResponses } from '@shared/config';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../admin/principal';
import { Public } from '../common/public.decorator';
import { AGENT_SCOPE, AgentTokenService, agentAudience } from './agent-token.service';
import { TokenRateLimiter } from './token-rate-limiter';

/** Authenticated token requests per client id, and failed ones per client address, per minute. */
export const TOKEN_REQUESTS_PER_MINUTE = 20;

class TokenResponseDto {
  @ApiProperty() access_token!: string;
  @ApiProperty({ example: 'Bearer' }) token_type!: string;
  @ApiProperty({ example: 3600 }) expires_in!: number;
  @ApiProperty({ example: 'read' }) scope!: string;
}

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'rate_limited';

/** The service's error fields for each OAuth error, so both kinds of client can read the answer. */
const SERVICE_CODE: Record<OAuthErrorCode, { status: number; code: string }> = {
  invalid_request: { status: 400, code: 'validation_failed' },
  unsupported_grant_type: { status: 400, code: 'validation_failed' },
  invalid_scope: { status: 400, code: 'validation_failed' },
  unauthorized_client: { status: 400, code: 'validation_failed' },
  invalid_client: { status: 401, code: 'invalid_credentials' },
  rate_limited: { status: 429, code: 'rate_limited' },
};

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** client_secret_basic: `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | 'malformed' | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return 'malformed';
  }
}

/**
 * OAuth 2.0 for agents: the client_credentials grant at POST /oauth/token and the discovery
 * metadata (RFC 8414, RFC 9728), which are served even when agent access is not configured.
 * Errors follow RFC 6749 §5.2 (`error`, `error_description`) and also carry the service's
 * `error_code` / `message`. Without MONITOR_OAUTH_CLIENT_SECRET every token request is refused
 * with 400 `unauthorized_client`: no client can be authenticated, and retrying will not help.
 */
@ApiTags('agent-access')
@Public()
@Controller()
export class OAuthController {
  private readonly perClient = new TokenRateLimiter(TOKEN_REQUESTS_PER_MINUTE, 60_000);
  private readonly failuresPerAddress = new TokenRateLimiter(TOKEN_REQUESTS_PER_MINUTE, 60_000);

  constructor(private readonly tokens: AgentTokenService) {}

  @Post('oauth/token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a read-only agent token (client_credentials)',
    description:
      'Form-encoded `grant_type=client_credentials` with client_secret_basic (Authorization: Basic) or client_secret_post ' +
      '(client_id and client_secret in the form). Answers an HS256 token valid for one hour with scope `read`. ' +
      '400 unauthorized_client when MONITOR_OAUTH_CLIENT_SECRET is not set; 401 invalid_client; 400 invalid_request, ' +
      `unsupported_grant_type, invalid_scope; 429 rate_limited (Retry-After) past ${TOKEN_REQUESTS_PER_MINUTE} issued tokens a minute per client, ` +
      `or ${TOKEN_REQUESTS_PER_MINUTE} failed client authentications a minute per address.`,
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: { type: 'string', enum: ['client_credentials'] },
        client_id: { type: 'string' },
        client_secret: { type: 'string' },
        scope: { type: 'string', enum: ['read'] },
      },
    },
  })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses({
    400: 'RFC 6749 error (invalid_request, unsupported_grant_type, invalid_scope, unauthorized_client) with error_description, plus error_code and message',
    401: 'invalid_client: unknown client id or wrong secret',
    429: 'rate_limited: too many tokens issued to this client; see Retry-After',
  })
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    const address = clientAddress(request);
    const fail = async (error: OAuthErrorCode, description: string, headers: Record<string, string> = {}): Promise<void> => {
      if (error === 'invalid_client') this.failuresPerAddress.hit(address);
      const { status, code } = SERVICE_CODE[error];
      await reply.status(status).headers(headers).send({ error, error_description: description, error_code: code, message: description });
    };

    if (!this.tokens.configured) {
      return fail('unauthorized_client', 'agent access is not configured: set MONITOR_OAUTH_CLIENT_SECRET to issue tokens');
    }
    const basic = basicCredentials(request.headers.authorization);
    const postedId = field(body, 'client_id');
    const postedSecret = field(body, 'client_secret');
    if (basic === 'malformed') return fail('invalid_request', 'the Basic authorization header is malformed');
    if (basic && postedSecret !== undefined) return fail('invalid_request', 'use one client authentication method: Basic or client_secret in the form');
    const clientId = basic?.clientId ?? postedId;
    const clientSecret = basic?.clientSecret ?? postedSecret;
    if (basic && postedId !== undefined && postedId !== basic.clientId) return fail('invalid_request', 'client_id in the form differs from the Basic credentials');

    const addressWait = this.failuresPerAddress.wait(address);
    if (addressWait > 0) return fail('rate_limited', `too many failed token requests; retry in ${addressWait} s`, { 'retry-after': String(addressWait) });

    const grantType = field(body, 'grant_type');
    if (!grantType) return fail('invalid_request', 'grant_type is required (client_credentials)');
    if (grantType !== 'client_credentials') return fail('unsupported_grant_type', 'only the client_credentials grant is supported');
    if (!clientId || clientSecret === undefined) {
      return fail('invalid_client', 'client authentication is required (client_secret_basic or client_secret_post)', { 'www-authenticate': 'Basic realm="repo-monitor"' });
    }
    if (!this.tokens.clientMatches(clientId, clientSecret)) {
      return fail('invalid_client', 'unknown client or wrong client secret', basic ? { 'www-authenticate': 'Basic realm="repo-monitor"' } : {});
    }
    // Counted only once the secret is accepted: the client id is public, so counting guesses that
    // merely name it would let anyone lock the real agent out.
    const clientWait = this.perClient.hit(`client:${clientId}`);
    if (clientWait > 0) return fail('rate_limited', `too many token requests; retry in ${clientWait} s`, { 'retry-after': String(clientWait) });
    const scope = field(body, 'scope');
    if (scope !== undefined && scope.split(' ').some((requested) => requested && requested !== AGENT_SCOPE)) {
      return fail('invalid_scope', 'the only scope is read');
    }
    const issued = this.tokens.issue(this.tokens.issuerFor(requestOrigin(request)));
    await reply.status(200).send({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, scope: issued.scope });
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiOperation({ summary: 'OAuth authorization server metadata (RFC 8414); served even when agent access is not configured' })
  authorizationServer(@Req() request: FastifyRequest): Record<string, unknown> {
    const issuer = this.tokens.issuerFor(requestOrigin(request));
    return {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [AGENT_SCOPE],
      response_types_supported: [],
      service_documentation: `${issuer}/docs`,
    };
  }

  @Get('.well-known/oauth-protected-resource')
  @ApiOperation({ summary: 'OAuth protected resource metadata (RFC 9728) of the read API; served even when agent access is not configured' })
  protectedResource(@Req() request: FastifyRequest): Record<string, unknown> {
    const issuer = this.tokens.issuerFor(requestOrigin(request));
    return {
      resource: agentAudience(issuer),
      authorization_servers: [issuer],
      scopes_supported: [AGENT_SCOPE],
      bearer_methods_supported: ['header'],
      resource_documentation: `${issuer}/docs`,
    };
  }
}
