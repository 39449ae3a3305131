import { requestJson } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Values of the wrong type, or out of any sane range, for a JSON field. */
const BAD_VALUES: unknown[] = [
  null,
  'x',
  '',
  -1,
  0,
  1.5,
  1e300,
  2 ** 64,
  true,
  [],
  [null],
  {},
  { a: { b: [] } },
  '%zz',
  'x'.repeat(5000),
];
/** Path segments that are no valid id of anything. */
const BAD_SEGMENTS = ['nobody', '..', '%2e%2e', '%zz', '%00', '-1', '99999999999999999999999', 'x'.repeat(300), '%E2%80%AE', 'a b'];
/** Query values of the wrong type; a repeated parameter arrives as an array. */
const BAD_QUERY_VALUES = ['abc', '-1', '1e309', '99999999999999999999', '%zz', '', 'true&{name}=false', 'NaN', '[]'];

/**
 * Routes this sweep leaves alone: the removed legacy API (410 for everything), the endless event
 * stream, and logout, which revokes the very token the sweep uses (auth.e2e-spec.ts covers it).
 */
const SKIPPED = [/^\/api\/tasks/, /^\/api\/events\//, /^\/api\/auth\/logout$/];

const document = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8')) as OpenApiDocument;

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return document.components.schemas[schema.$ref.split('/').pop() as string];
}

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
}

/** Every operation of the committed OpenAPI document, each with wrong ids, wrong query values and wrong body fields. */
function probes(): Probe[] {
  const out: Probe[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    if (SKIPPED.some((pattern) => pattern.test(template))) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      const queryParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      const concrete = (segment: string) => pathParameters.reduce((path, name) => path.replace(`{${name}}`, segment), template);
      const paths = pathParameters.length ? BAD_SEGMENTS.map(concrete) : [template];
      const base = paths[0];
      for (const path of paths)
        out.push({
          method: method.toUpperCase(),
          path,
          body: operation.requestBody ? {} : undefined,
        });
      for (const name of queryParameters) {
        for (const value of BAD_QUERY_VALUES)
          out.push({
            method: method.toUpperCase(),
            path: `${base}?${name}=${value.replace('{name}', name)}`,
          });
        out.push({
          method: method.toUpperCase(),
          path: `${base}?${name}=1&${name}=2`,
        });
      }
      const schema = resolve(operation.requestBody?.content['application/json']?.schema);
      if (!operation.requestBody) continue;
      for (const raw of ['null', '[]', '"text"', '12', '{"a":', '{"__proto__":{"x":1}}', '1e309'])
        out.push({ method: method.toUpperCase(), path: base, rawBody: raw });
      for (const property of Object.keys(schema?.properties ?? {})) {
        for (const value of BAD_VALUES)
          out.push({
            method: method.toUpperCase(),
            path: base,
            body: { [property]: value },
          });
      }
    }
  }
  return out;
}

const validTask = {
  name: 'sweep',
  account_name: 'main',
  sign_at: '08:00',
  execution_mode: 'fixed',
  chats: [{ chat_id: '@bot_name', actions: [{ action: 1, text: '/sign' }] }],
};

const listenTask = {
  name: 'sweep-listen',
  account_name: 'main',
  execution_mode: 'listen',
  chats: [
    {
      chat_id: -100123,
      actions: [
        {
          action: 8,
          keywords: ['win'],
          active_time_start: '08:00',
          active_time_end: '20:00',
        },
      ],
    },
  ],
};

/** A valid task with one field, at the top or inside a chat or an action, set to a bad value. */
function taskMutations(): unknown[] {
  const out: unknown[] = [];
  for (const task of [validTask, listenTask]) {
    for (const field of [
      ...Object.keys(validTask),
      'range_start',
      'range_end',
      'random_seconds',
      'retry_count',
      'enabled',
      'account_names',
      'notify_on_failure',
    ]) {
      for (const value of BAD_VALUES) out.push({ ...task, [field]: value });
    }
    for (const field of ['chat_id', 'name', 'message_thread_id', 'action_interval', 'delete_after', 'actions']) {
      for (const value of BAD_VALUES) out.push({ ...task, chats: [{ ...task.chats[0], [field]: value }] });
    }
    for (const field of [
      'action',
      'text',
      'delay',
      'keywords',
      'match_mode',
      'active_time_start',
      'active_time_end',
      'push_channel',
      'continue_actions',
      'ignore_case',
      'bark_url',
    ]) {
      for (const value of BAD_VALUES)
        out.push({
          ...task,
          chats: [
            {
              ...task.chats[0],
              actions: [{ ...task.chats[0].actions[0], [field]: value }],
            },
          ],
        });
    }
  }
  return out;
}

describe('panel-api answers malformed input with a 4xx in its error shape, never a 5xx', () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();

  beforeAll(async () => {
    panel = await startPanel({
      env: { APP_UPDATE_CHECK: '0', MSGR_SESSION_MODE: 'string' },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 000 009' });
    const imported = await requestJson(panel.url, '/api/accounts/import-session', {
      method: 'POST',
      token,
      body: {
        account_name: 'main',
        session_string: telegram.issueSession(user.id),
      },
    });
    expect(imported.status).toBe(201);
  });

  afterAll(async () => {
    agent.destroy();
    await panel?.close();
  });

  /**
   * One probe over a kept-alive node:http connection: the sweep sends thousands, and fetch (undici)
   * spent more CPU on each than the service did. The path is resolved as fetch resolves it (WHATWG
   * URL: `..` and `%2e%2e` folded), so the service sees what it saw from fetch.
   */
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  function send(probe: Probe): Promise<{ status: number; body: Record<string, unknown> | undefined; text: string }> {
    const url = new URL(`${panel.url}${probe.path}`);
    const body = probe.rawBody ?? (probe.body === undefined ? undefined : JSON.stringify(probe.body));
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    return new Promise((resolve, reject) => {
      const outgoing = request({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: probe.method, headers, timeout: 30_000 }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, text });
        });
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${probe.method} ${probe.path} within 30 s`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function expectNo5xx(list: Probe[]): Promise<void> {
    const failures: string[] = [];
    for (const probe of list) {
      const response = await send(probe);
      const describe = `${probe.method} ${probe.path} ${probe.rawBody ?? JSON.stringify(probe.body)?.slice(0, 200) ?? ''} -> ${response.status} ${response.text.slice(0, 200)}`;
      if (response.status >= 500) failures.push(describe);
      else if (
        response.status >= 400 &&
        !(response.body && typeof response.body === 'object' && response.body['statusCode'] === response.status && typeof response.body['message'] === 'string')
      ) {
        failures.push(`not in the error shape: ${describe}`);
      }
    }
    expect(failures).toEqual([]);
  }

  it('survives wrong ids, query values and body fields on every route of the OpenAPI document', async () => {
    const list = probes();
    expect(list.length).toBeGreaterThan(1000);
    await expectNo5xx(list);
  }, 600_000);

  it('survives a valid task with any one field broken, nested ones included', async () => {
    const bodies = taskMutations();
    await expectNo5xx(bodies.map((body) => ({ method: 'POST', path: '/api/sign-tasks', body })));
    await requestJson(panel.url, '/api/sign-tasks', {
      method: 'POST',
      token,
      body: validTask,
    });
    await expectNo5xx(
      bodies.map((body) => ({
        method: 'PUT',
        path: '/api/sign-tasks/sweep',
        body: { ...(body as object), name: 'sweep' },
      })),
    );
  }, 600_000);

  it('refuses a proxy with a broken percent-escape with 400', async () => {
    for (const proxy of ['socks5://u%zz:p@127.0.0.1:1080', 'socks5://u:p%@127.0.0.1:1080', 'http://%E0%A4%A@127.0.0.1:8080', 'mtproxy://%zz@127.0.0.1:443']) {
      const response = await requestJson<{
        statusCode: number;
        message: string;
      }>(panel.url, '/api/accounts/main', {
        method: 'PATCH',
        token,
        body: { proxy },
      });
      expect([proxy, response.status]).toEqual([proxy, 400]);
      expect(response.body.message).toMatch(/^The proxy (user name or password holds a broken %-escape|link needs|MTProxy secret)|^The MTProxy secret/);
    }
    const fine = await requestJson<{ proxy: string }>(panel.url, '/api/accounts/main', {
      method: 'PATCH',
      token,
      body: { proxy: 'socks5://u%40x:p%25@127.0.0.1:1080' },
    });
    expect(fine.status).toBe(200);
    expect(fine.body.proxy).toBe('socks5://u%40x:***@127.0.0.1:1080');
  });

  it('takes null in sign_at, range_start and active_time_start as not set: 400 where the mode needs it, else stored without it', async () => {
    const fixed = await requestJson<{ message: string }>(panel.url, '/api/sign-tasks', {
      method: 'POST',
      token,
      body: { ...validTask, name: 'nulls-1', sign_at: null },
    });
    expect(fixed.status).toBe(400);
    expect(fixed.body.message).toMatch(/sign_at is required in fixed mode/);
    const range = await requestJson<{ message: string }>(panel.url, '/api/sign-tasks', {
      method: 'POST',
      token,
      body: {
        ...validTask,
        name: 'nulls-2',
        execution_mode: 'range',
        sign_at: null,
        range_start: null,
        range_end: '09:00',
      },
    });
    expect(range.status).toBe(400);
    expect(range.body.message).toMatch(/range mode needs range_start and range_end/);
    const listen = await requestJson<{
      chats: Array<{ actions: Array<Record<string, unknown>> }>;
    }>(panel.url, '/api/sign-tasks', {
      method: 'POST',
      token,
      body: {
        ...listenTask,
        name: 'nulls-3',
        range_start: null,
        chats: [
          {
            ...listenTask.chats[0],
            actions: [
              {
                action: 8,
                keywords: ['win'],
                active_time_start: null,
                active_time_end: null,
              },
            ],
          },
        ],
      },
    });
    expect(listen.status).toBe(201);
    expect(listen.body.chats[0].actions[0]).not.toHaveProperty('active_time_start');
  });

  it('refuses schedules that never fire or fire more than once a minute with a clear 400', async () => {
    for (const [signAt, message] of [
      ['0 0 31 2 *', /sign_at never fires/],
      ['* * * * * *', /shortest interval allowed is 60 seconds/],
      ['*/5 * * * * *', /shortest interval allowed is 60 seconds/],
    ] as const) {
      const response = await requestJson<{ message: string }>(panel.url, '/api/sign-tasks', {
        method: 'POST',
        token,
        body: { ...validTask, name: 'schedule', sign_at: signAt },
      });
      expect([signAt, response.status]).toEqual([signAt, 400]);
      expect(response.body.message).toMatch(message);
    }
    const everyMinute = await requestJson(panel.url, '/api/sign-tasks', {
      method: 'POST',
      token,
      body: { ...validTask, name: 'schedule', sign_at: '* * * * *' },
    });
    expect(everyMinute.status).toBe(201);
  });
});
