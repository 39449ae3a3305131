import { ApiErrorResponses } from '@shared/http-service';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../admin/principal';
import { Public } from '../common/public.decorator';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { AGENT_SCOPE, AgentResource, AgentTokenService, agentAudience, agentResourceOf } from './agent-token.service';
import { TokenRateLimiter } from './token-rate-limiter';

/** Authenticated token requests per client id, and failed ones per client address, per minute. */
export const TOKEN_REQUESTS_PER_MINUTE = 20;

class TokenResponseDto {
  @ApiProperty() access_token!: string;
  @ApiProperty({ example: 'Bearer' }) token_type!: string;
  @ApiProperty({ example: 3600 }) expires_in!: number;
  @ApiProperty({ example: 'read' }) scope!: string;
}

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'rate_limited';

/** The service's error fields for each OAuth error, so both kinds of client can read the answer. */
const SERVICE_CODE: Record<OAuthErrorCode, { status: number; code: string }> = {
  invalid_request: { status: 400, code: 'validation_failed' },
  unsupported_grant_type: { status: 400, code: 'validation_failed' },
  invalid_scope: { status: 400, code: 'validation_failed' },
  invalid_target: { status: 400, code: 'validation_failed' },
  unauthorized_client: { status: 400, code: 'validation_failed' },
  invalid_client: { status: 401, code: 'invalid_credentials' },
  rate_limited: { status: 429, code: 'rate_limited' },
};

/** The protected resources whose metadata is published (RFC 9728 §3.1: the resource path after the well-known name). */
const RESOURCE_PATHS: Record<AgentResource, string> = { api: 'api/v1', mcp: 'mcp' };

const BAD_HOST = 'validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set)';

/** Where the metadata of a protected resource is published (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(issuer: string, resource: AgentResource): string {
  return `${issuer}/.well-known/oauth-protected-resource/${RESOURCE_PATHS[resource]}`;
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

  constructor(
    private readonly tokens: AgentTokenService,
    private readonly settings: GithubAppSharedSettings,
  ) {}

  @Post('oauth/token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a read-only agent token (client_credentials)',
    description:
      'Form-encoded `grant_type=client_credentials` with client_secret_basic (Authorization: Basic) or client_secret_post ' +
      '(client_id and client_secret in the form). Answers an HS256 token valid for one hour with scope `read`, bound to this ' +
      'issuer; an optional `resource` (RFC 8707) names the read API or the MCP endpoint, anything else is 400 invalid_target. ' +
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
        resource: { type: 'string', description: 'RFC 8707 resource indicator: <issuer>/api/v1 or <issuer>/mcp' },
      },
    },
  })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses({
    400: 'RFC 6749 error (invalid_request, unsupported_grant_type, invalid_scope, unauthorized_client) or RFC 8707 invalid_target, with error_description, plus error_code and message',
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
    const issuer = await this.settings.publicOrigin(request);
    const requestedResource = field(body, 'resource');
    const resource = requestedResource === undefined ? 'api' : agentResourceOf(issuer, requestedResource);
    if (!resource) return fail('invalid_target', `resource must be ${agentAudience(issuer, 'api')} or ${agentAudience(issuer, 'mcp')}`);
    const issued = this.tokens.issue(issuer, new Date(), resource);
    await reply.status(200).send({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, scope: issued.scope });
  }

  @Get('oauth/authorize')
  @ApiOperation({
    summary: 'Authorization endpoint: no response type is offered (agents use client_credentials at /oauth/token); always 400 unsupported_response_type',
    description:
      'Published because RFC 8414 clients (the MCP SDK among them) require an authorization_endpoint in the metadata. ' +
      'It never redirects: without a registered redirect URI the error is answered directly (RFC 6749 §4.1.2.1).',
  })
  @ApiErrorResponses({ 400: 'unsupported_response_type: no authorization response type is offered' })
  async authorize(@Res() reply: FastifyReply): Promise<void> {
    const description = 'no authorization response type is offered: agents get tokens with the client_credentials grant at /oauth/token';
    await reply
      .status(400)
      .header('cache-control', 'no-store')
      .send({ error: 'unsupported_response_type', error_description: description, error_code: 'validation_failed', message: description });
  }

  @Get('.well-known/oauth-authorization-server')
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiErrorResponses({ 400: BAD_HOST })
  @ApiOperation({ summary: 'OAuth authorization server metadata (RFC 8414); served even when agent access is not configured' })
  async authorizationServer(@Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    const issuer = await this.settings.publicOrigin(request);
    return {
      issuer,
      // Required by RFC 8414 clients; it answers unsupported_response_type, as response_types_supported (empty) says.
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [AGENT_SCOPE],
      response_types_supported: [],
      service_documentation: `${issuer}/docs`,
    };
  }

  @Get('.well-known/oauth-protected-resource')
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiErrorResponses({ 400: BAD_HOST })
  @ApiOperation({ summary: 'OAuth protected resource metadata (RFC 9728) of the read API; served even when agent access is not configured' })
  async protectedResource(@Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    return this.resourceMetadata(request, 'api');
  }

  @Get('.well-known/oauth-protected-resource/api/v1')
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiErrorResponses({ 400: BAD_HOST })
  @ApiOperation({ summary: 'OAuth protected resource metadata (RFC 9728) of the read API at /api/v1' })
  async apiResource(@Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    return this.resourceMetadata(request, 'api');
  }

  @Get('.well-known/oauth-protected-resource/mcp')
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiErrorResponses({ 400: BAD_HOST })
  @ApiOperation({ summary: 'OAuth protected resource metadata (RFC 9728) of the MCP endpoint at /mcp; the MCP 401 points here' })
  async mcpResource(@Req() request: FastifyRequest): Promise<Record<string, unknown>> {
    return this.resourceMetadata(request, 'mcp');
  }

  private async resourceMetadata(request: FastifyRequest, resource: AgentResource): Promise<Record<string, unknown>> {
    const issuer = await this.settings.publicOrigin(request);
    return {
      resource: agentAudience(issuer, resource),
      authorization_servers: [issuer],
      scopes_supported: [AGENT_SCOPE],
      bearer_methods_supported: ['header'],
      resource_documentation: `${issuer}/docs`,
    };
  }
}
