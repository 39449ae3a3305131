import { ApiErrorResponses } from '@shared/http-service';
import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/public.decorator';
import { quotedString } from '../common/request-origin';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { AGENT_SCHEME } from '../openapi';
import { AgentReadModel } from './agent-read-model';
import { AgentTokenService } from './agent-token.service';
import { createReadOnlyMcpServer } from './mcp-server';
import { protectedResourceMetadataUrl } from './oauth.controller';

/**
 * The read-only MCP endpoint (streamable HTTP, stateless: one server and transport per request).
 * Public to the session guard on purpose: the guard treats every POST as a write, while MCP reads
 * through POST; this route checks the agent token itself and exposes read-only tools only.
 */
@ApiTags('agent-access')
@Public()
@Controller('mcp')
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(
    private readonly tokens: AgentTokenService,
    private readonly read: AgentReadModel,
    private readonly settings: GithubAppSharedSettings,
  ) {}

  @Post()
  @ApiBearerAuth(AGENT_SCHEME)
  @ApiOkResponse({ description: 'JSON-RPC response', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  @ApiErrorResponses({
    400: 'validation_failed: the Host header is not a plain host[:port] (only while no public base URL is set)',
    401: 'unauthorized: no valid agent token; WWW-Authenticate names the resource metadata (RFC 9728)',
  })
  @ApiOperation({
    summary: 'Read-only MCP server (JSON-RPC over streamable HTTP) with the agent token',
    description: 'Tools: list_repositories, list_events, list_work_items, list_alerts, get_digest. 401 without a valid agent token.',
  })
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const issuer = await this.settings.publicOrigin(request);
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const agent = bearer ? await this.tokens.verify(bearer, issuer, 'mcp') : null;
    if (!agent) {
      const metadata = protectedResourceMetadataUrl(issuer, 'mcp');
      await reply
        .status(401)
        .header('www-authenticate', `Bearer resource_metadata=${quotedString(metadata)}, scope="read"`)
        .send({ error_code: 'unauthorized', message: 'the MCP endpoint needs an agent token from POST /oauth/token' });
      return;
    }
    const server = createReadOnlyMcpServer(this.read);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.logger.error(`MCP request failed: ${(error as Error).message}`);
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
      }
    }
  }

  @Get()
  @ApiOperation({ summary: 'Not offered: the MCP endpoint is stateless (no server-sent event stream); 405' })
  @ApiResponse({ status: 405, description: 'Method not allowed (JSON-RPC error body); use POST', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  async stream(@Res() reply: FastifyReply): Promise<void> {
    await this.methodNotAllowed(reply);
  }

  @Delete()
  @ApiOperation({ summary: 'Not offered: there are no MCP sessions to end; 405' })
  @ApiResponse({ status: 405, description: 'Method not allowed (JSON-RPC error body); use POST', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  async end(@Res() reply: FastifyReply): Promise<void> {
    await this.methodNotAllowed(reply);
  }

  private async methodNotAllowed(reply: FastifyReply): Promise<void> {
    await reply
      .status(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, use POST' }, id: null });
  }
}
