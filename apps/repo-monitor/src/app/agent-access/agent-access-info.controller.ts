import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AGENT_READABLE_PREFIXES } from '../admin/agent-read-scope';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { COOKIE_SCHEME } from '../openapi';
import { AGENT_SCOPE, AGENT_TOKEN_LIFETIME_SECONDS, agentAudience } from './agent-token.service';
import { protectedResourceMetadataUrl } from './oauth.controller';

export class AgentAccessInfoDto {
  @ApiProperty({ description: 'Tokens can be issued: MONITOR_OAUTH_CLIENT_SECRET and MONITOR_ENCRYPTION_KEY are both set' }) enabled!: boolean;
  @ApiProperty({ description: 'MONITOR_OAUTH_CLIENT_ID (default repo-monitor-agent)' }) client_id!: string;
  @ApiProperty({ description: 'Whether MONITOR_OAUTH_CLIENT_SECRET is set; the secret itself is never shown' }) client_secret_set!: boolean;
  @ApiProperty({ description: 'Whether MONITOR_ENCRYPTION_KEY is set (tokens are signed with a key derived from it)' }) encryption_key_set!: boolean;
  @ApiProperty({ description: 'The issuer tokens are bound to: the public base URL, else the origin of this request' }) issuer!: string;
  @ApiProperty({ description: 'false: no public base URL is set, so the issuer follows the Host a client uses' }) issuer_from_public_base_url!: boolean;
  @ApiProperty() token_endpoint!: string;
  @ApiProperty({ description: 'RFC 8414 authorization server metadata' }) authorization_server_metadata_url!: string;
  @ApiProperty({ description: 'RFC 9728 metadata of the read API' }) api_resource_metadata_url!: string;
  @ApiProperty({ description: 'RFC 9728 metadata of the MCP endpoint' }) mcp_resource_metadata_url!: string;
  @ApiProperty({ description: 'The read API an agent token may call (audience of the default token)' }) api_base_url!: string;
  @ApiProperty({ description: 'The MCP endpoint (Streamable HTTP)' }) mcp_endpoint!: string;
  @ApiProperty() openapi_url!: string;
  @ApiProperty({ example: 'read' }) scope!: string;
  @ApiProperty({ example: 3600 }) token_lifetime_seconds!: number;
  @ApiProperty({ type: [String], description: 'Path prefixes under /api/v1 an agent token may read; everything else is admin only' })
  readable_paths!: string[];
}

export class MetricsInfoDto {
  @ApiProperty({ description: 'MONITOR_METRICS_ENABLED (default true); false: /metrics answers 404' }) enabled!: boolean;
  @ApiProperty({ description: 'Whether MONITOR_METRICS_TOKEN is set (then a scrape needs Authorization: Bearer <token>); never shown' })
  token_set!: boolean;
  @ApiProperty({ example: '/metrics' }) scrape_path!: string;
  @ApiProperty({ description: 'The full URL to scrape, from the public base URL or this request' }) scrape_url!: string;
  @ApiProperty({ description: 'A Prometheus scrape_configs entry for this service (the token read from a file, never inlined)' })
  prometheus_scrape_config!: string;
}

/** What the console's agent-access and metrics page shows; admin only, and never a secret. */
@ApiTags('agent-access')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1')
export class AgentAccessInfoController {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly settings: GithubAppSharedSettings,
  ) {}

  @Get('agent-access')
  @ApiOperation({ summary: 'How agents reach this service: discovery URLs, token endpoint, MCP endpoint, client id, whether a secret is set' })
  @ApiOkResponse({ type: AgentAccessInfoDto })
  async agentAccess(@Req() request: FastifyRequest): Promise<AgentAccessInfoDto> {
    const issuer = await this.settings.publicOrigin(request);
    const secretSet = Boolean(this.config.oauth.clientSecret);
    const keySet = Boolean(this.config.encryption.key);
    return {
      enabled: secretSet && keySet,
      client_id: this.config.oauth.clientId,
      client_secret_set: secretSet,
      encryption_key_set: keySet,
      issuer,
      issuer_from_public_base_url: (await this.settings.publicBaseUrl()) !== undefined,
      token_endpoint: `${issuer}/oauth/token`,
      authorization_server_metadata_url: `${issuer}/.well-known/oauth-authorization-server`,
      api_resource_metadata_url: protectedResourceMetadataUrl(issuer, 'api'),
      mcp_resource_metadata_url: protectedResourceMetadataUrl(issuer, 'mcp'),
      api_base_url: agentAudience(issuer, 'api'),
      mcp_endpoint: agentAudience(issuer, 'mcp'),
      openapi_url: `${issuer}/openapi.json`,
      scope: AGENT_SCOPE,
      token_lifetime_seconds: AGENT_TOKEN_LIFETIME_SECONDS,
      readable_paths: [...AGENT_READABLE_PREFIXES],
    };
  }

  @Get('system/metrics')
  @ApiOperation({ summary: 'Whether Prometheus metrics are on and need a token, the scrape path, and a scrape config to copy' })
  @ApiOkResponse({ type: MetricsInfoDto })
  async metrics(@Req() request: FastifyRequest): Promise<MetricsInfoDto> {
    const origin = new URL(await this.settings.publicOrigin(request));
    const basePath = origin.pathname.replace(/\/+$/, '');
    const scrapePath = `${basePath}/metrics`;
    const tokenSet = Boolean(this.config.metrics.token);
    const lines = [
      '- job_name: repo-monitor',
      `  scheme: ${origin.protocol.replace(':', '')}`,
      `  metrics_path: ${scrapePath}`,
      ...(tokenSet ? ['  authorization:', '    type: Bearer', '    credentials_file: /etc/prometheus/repo-monitor-metrics-token'] : []),
      '  static_configs:',
      `    - targets: ['${origin.host}']`,
    ];
    return {
      enabled: this.config.metrics.enabled,
      token_set: tokenSet,
      scrape_path: scrapePath,
      scrape_url: `${origin.origin}${scrapePath}`,
      prometheus_scrape_config: `${lines.join('\n')}\n`,
    };
  }
}
