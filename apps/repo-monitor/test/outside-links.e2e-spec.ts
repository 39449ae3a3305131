import { waitFor } from '@shared/testing';
import { DataSource } from 'typeorm';
import { INBOUND_SECRET, issueEvent, pullRequestEvent, releaseEvent, securityAlertEvent, sendDelivery, workflowRunEvent } from './github-fixtures';
import { RunningMonitor, startMonitor } from './harness';

/** Every link column of every record kind, with the table it is in. */
async function storedLinks(dataSource: DataSource): Promise<Array<{ source: string; html_url: string | null }>> {
  const tables = ['repositories', 'work_items', 'workflow_runs', 'security_alerts', 'events', 'ai_pr_reviews'];
  const rows: Array<{ source: string; html_url: string | null }> = [];
  for (const table of tables) {
    const found = (await dataSource.query(`SELECT "html_url" FROM "${table}"`)) as Array<{ html_url: string | null }>;
    rows.push(...found.map((row) => ({ source: table, html_url: row.html_url })));
  }
  return rows;
}

describe('links from GitHub payloads: only https is stored', () => {
  let monitor: RunningMonitor;
  let dataSource: DataSource;
  const repository = { full_name: 'acme/links', id: 4242 };

  /** Sends a signed delivery and waits until it was applied (not just stored). */
  const deliver = async (event: string, payload: Record<string, unknown>) => {
    const sent = await sendDelivery(monitor.url, event, payload);
    expect(sent.status).toBe(202);
    const placeholder = dataSource.options.type === 'postgres' ? '$1' : '?';
    await waitFor(async () => {
      const rows = (await dataSource.query(`SELECT "status" FROM "webhook_deliveries" WHERE "delivery_id" = ${placeholder}`, [sent.deliveryId])) as Array<{ status: string }>;
      return rows.length === 1 && rows[0].status !== 'accepted';
    }, 15_000);
  };
  const withLinks = (payload: Record<string, unknown>, link: string, key: string): Record<string, unknown> => ({
    ...payload,
    repository: { ...(payload['repository'] as Record<string, unknown>), html_url: link },
    [key]: { ...(payload[key] as Record<string, unknown>), html_url: link },
  });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET } });
    dataSource = monitor.app.get(DataSource);
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('stores no javascript:, data:, other-scheme or plain-http link from a signed delivery of any record kind', async () => {
    const hostile = [
      'javascript:alert(document.cookie)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'http://evil.example/acme/links',
    ];
    for (const link of hostile) {
      await deliver('pull_request', withLinks(pullRequestEvent(0, repository, 1, 'opened'), link, 'pull_request'));
      await deliver('issues', withLinks(issueEvent('opened', 0, repository, 2, 'Bug'), link, 'issue'));
      await deliver('workflow_run', withLinks(workflowRunEvent(0, repository, { id: 9000 + hostile.indexOf(link), conclusion: 'failure' }), link, 'workflow_run'));
      await deliver('release', withLinks(releaseEvent(0, repository, 'published', { id: 700 + hostile.indexOf(link), tag: `v${hostile.indexOf(link)}` }), link, 'release'));
      await deliver('dependabot_alert', withLinks(securityAlertEvent('dependabot_alert', 0, repository, 3 + hostile.indexOf(link), 'created'), link, 'alert'));
    }
    const links = await storedLinks(dataSource);
    // Every kind was recorded (and so had a link to keep or drop).
    expect(new Set(links.map((row) => row.source))).toEqual(new Set(['repositories', 'work_items', 'workflow_runs', 'security_alerts', 'events']));
    for (const row of links) {
      if (row.html_url === null) continue;
      expect(row.html_url).toMatch(/^https:\/\//);
      expect(row.html_url).not.toMatch(/evil|script|data:/i);
    }
    // Without a link of its own a record points at the repository's page on the configured GitHub.
    expect(links.filter((row) => row.source === 'work_items').map((row) => row.html_url)).toEqual(['https://github.com/acme/links', 'https://github.com/acme/links']);
  });

  it('keeps an https link as GitHub sent it', async () => {
    await deliver('pull_request', pullRequestEvent(0, repository, 50, 'opened'));
    const rows = (await dataSource.query(`SELECT "html_url" FROM "work_items" WHERE "number" = 50`)) as Array<{ html_url: string }>;
    expect(rows.map((row) => row.html_url)).toEqual(['https://github.com/acme/links/pull/50']);
  });
});
