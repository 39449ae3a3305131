import { sign } from '@octokit/webhooks-methods';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { testDatabaseDriver } from '@shared/testing';
import { DataSource } from 'typeorm';
import { DeliveryProcessor } from '../src/app/processing/delivery-processor';
import { RunningMonitor, startMonitor } from './harness';
import { INBOUND_SECRET } from './github-fixtures';

/** GitHub's published example deliveries: the api.github.com set and every GHES set in the package. */
const EXAMPLES_DIR = dirname(require.resolve('@octokit/webhooks-examples/package.json'));
const EXAMPLE_SETS = ['api.github.com', 'ghes-31', 'ghes-32', 'ghes-33', 'ghes-34', 'ghes-35'];

interface ExampleDefinition {
  name: string;
  examples: unknown[];
}

interface ExampleDelivery {
  set: string;
  event: string;
  index: number;
  json: string;
}

function loadExamples(): ExampleDelivery[] {
  const deliveries: ExampleDelivery[] = [];
  for (const set of EXAMPLE_SETS) {
    const definitions = JSON.parse(readFileSync(join(EXAMPLES_DIR, set, 'index.json'), 'utf8')) as ExampleDefinition[];
    for (const definition of definitions) {
      definition.examples.forEach((example, index) => deliveries.push({ set, event: definition.name, index, json: JSON.stringify(example) }));
    }
  }
  return deliveries;
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

describe('every example delivery of @octokit/webhooks-examples, signed with @octokit/webhooks-methods', () => {
  const examples = loadExamples();
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET, MONITOR_LOG_LEVEL: 'error' } });
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('covers both corpora, including event names with digits', () => {
    const sets = new Set(examples.map((example) => example.set));
    expect([...sets].sort()).toEqual([...EXAMPLE_SETS].sort());
    expect(examples.length).toBeGreaterThan(700);
    expect(examples.some((example) => example.event === 'projects_v2_item')).toBe(true);
  });

  // As a form the body differs only until the payload is decoded, before the database is involved:
  // on PostgreSQL every example is sent once, as JSON (its storage and processing are what differ
  // there); on SQLite as JSON and as a form.
  const asForm = testDatabaseDriver() === 'sqlite';

  it(`answers 202 to each ${asForm ? 'as JSON and as a form' : 'as JSON'}, and processes all of them with none failed`, async () => {
    const sends = examples.flatMap((example) => [
      { ...example, contentType: 'application/json', body: example.json, deliveryId: `json-${example.set}-${example.event}-${example.index}` },
      ...(asForm
        ? [
            {
              ...example,
              contentType: 'application/x-www-form-urlencoded',
              body: `payload=${encodeURIComponent(example.json)}`,
              deliveryId: `form-${example.set}-${example.event}-${example.index}`,
            },
          ]
        : []),
    ]);
    const answers = await inParallel(sends, 16, async (send) => {
      const response = await fetch(`${monitor.url}/webhooks/github`, {
        method: 'POST',
        headers: {
          'content-type': send.contentType,
          'x-github-event': send.event,
          'x-github-delivery': send.deliveryId,
          'x-hub-signature-256': await sign(INBOUND_SECRET, send.body),
          'user-agent': 'GitHub-Hookshot/example',
        },
        body: send.body,
      });
      const text = await response.text();
      return { id: send.deliveryId, status: response.status, text };
    });
    const refused = answers.filter((answer) => answer.status !== 202);
    expect(refused).toEqual([]);
    expect(answers.every((answer) => (JSON.parse(answer.text) as { status: string }).status === 'accepted')).toBe(true);

    await monitor.app.get(DeliveryProcessor).drained();
    const rows = (await monitor.app.get(DataSource).query('SELECT "status", COUNT(*) AS "count" FROM "webhook_deliveries" GROUP BY "status"')) as Array<{
      status: string;
      count: string | number;
    }>;
    const byStatus = Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    expect(byStatus).toEqual({ processed: sends.length });
    // Every example twice (JSON and form) through signature, storage and processing: about a minute
    // when three test steps share the two cores, so it gets three.
  }, 180_000);
});
