import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DIGEST_PERIODS } from '../ai/digest.entity';
import { EVENT_CATEGORIES } from '../common/event-category';
import { SECURITY_ALERT_KINDS } from '../security-alerts/security-alert.entity';
import { packageVersion } from '@shared/config';
import { MAX_PAGE, MAX_PER_PAGE } from '../common/list-page';
import { AgentReadModel } from './agent-read-model';

const paging = {
  page: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Page number, from 1 to ${MAX_PAGE}`),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE).optional().describe(`Items per page (default 20, at most ${MAX_PER_PAGE})`),
};
const repository = z.string().min(3).max(255).optional().describe('Only this repository (owner/name)');

function asText(value: unknown): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A read-only MCP server over the stored records: one per request (the endpoint is stateless). */
export function createReadOnlyMcpServer(read: AgentReadModel): McpServer {
  const server = new McpServer({ name: 'repo-monitor', version: packageVersion() }, { capabilities: { tools: {} } });
  server.registerTool(
    'list_repositories',
    {
      description: 'Watched repositories (installation and external public ones), sorted by name',
      inputSchema: { ...paging, status: z.enum(['active', 'archived', 'removed']).optional() },
      annotations: READ_ONLY,
    },
    async (args) => asText(await read.repositories(args)),
  );
  server.registerTool(
    'list_events',
    {
      description: 'Recorded events (issues, pull requests, workflow runs, releases, alerts, stars…), newest first',
      inputSchema: {
        ...paging,
        repository,
        category: z.enum(EVENT_CATEGORIES).optional(),
        kind: z.string().max(64).optional().describe('An event kind such as issues.opened or workflow_run.failure'),
        since: z.iso.datetime({ offset: true }).optional().describe('Only events that occurred at or after this ISO 8601 time'),
      },
      annotations: READ_ONLY,
    },
    async (args) => asText(await read.events(args)),
  );
  server.registerTool(
    'list_work_items',
    {
      description: 'Issues and pull requests as last seen, most recently updated first',
      inputSchema: { ...paging, repository, kind: z.enum(['issue', 'pull_request']).optional(), state: z.enum(['open', 'closed']).optional() },
      annotations: READ_ONLY,
    },
    async (args) => asText(await read.workItems(args)),
  );
  server.registerTool(
    'list_alerts',
    {
      description: 'Dependabot, code scanning and secret scanning alerts, most recently updated first',
      inputSchema: { ...paging, repository, kind: z.enum(SECURITY_ALERT_KINDS).optional(), state: z.string().max(32).optional() },
      annotations: READ_ONLY,
    },
    async (args) => asText(await read.alerts(args)),
  );
  server.registerTool(
    'get_digest',
    {
      description: 'The newest digest (daily, weekly or monthly) the service produced',
      inputSchema: { period: z.enum(DIGEST_PERIODS).optional() },
      annotations: READ_ONLY,
    },
    async (args) => asText((await read.latestDigest(args.period)) ?? { digest: null, message: 'no digest has been produced yet' }),
  );
  return server;
}
