import { requestJson } from '@shared/testing';
import { KeywordHitsService, NewKeywordHit } from '../src/app/keyword-hits/keyword-hits.service';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface Hit {
  id: number;
  account_name: string;
  task_name: string;
  chat_id: string;
  text: string;
  hit_at: string;
  push_status: string;
}

interface Page {
  items: Hit[];
  total: number;
  limit: number;
  offset: number;
}

interface Groups {
  group_by: string;
  groups: Array<{ key: string; title: string | null; count: number; latest_hit: Hit }>;
}

const BASE = Date.UTC(2025, 0, 1, 0, 0, 0);

function hit(n: number, overrides: Partial<NewKeywordHit> = {}): NewKeywordHit {
  return {
    accountName: n % 2 === 0 ? 'alice' : 'bob',
    taskName: n % 3 === 0 ? 'deals' : 'alerts',
    ruleIndex: 0,
    chatId: n % 4 === 0 ? '-1001' : '-1002',
    chatTitle: n % 4 === 0 ? 'Deals' : 'News',
    messageThreadId: null,
    senderId: '42',
    senderName: 'Sender',
    senderUsername: 'sender',
    messageId: 1000 + n,
    messageText: `message number ${n}`,
    matchedKeyword: 'number',
    messageUrl: null,
    hitAt: new Date(BASE + n * 3_600_000),
    pushChannel: 'telegram',
    ...overrides,
  };
}

/** The keyword hits API over hits recorded through the service the listeners use. */
describe('keyword hits API', () => {
  let panel: RunningPanel;
  let token: string;
  const get = <T>(path: string, auth = true) => requestJson<T>(panel.url, path, auth ? { token } : {});

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    const service = panel.app.get(KeywordHitsService);
    // 24 hits, one an hour from 2025-01-01T00:00Z (hit 0) to 23:00Z (hit 23).
    for (let n = 0; n < 24; n++) expect(await service.record(hit(n))).toBeDefined();
    await service.record(
      hit(100, {
        accountName: 'carol',
        taskName: 'tricky',
        chatId: '-1003',
        chatTitle: 'Tricky, "quoted"',
        messageText: '=HYPERLINK("http://evil")\nsecond line, with comma; 100% _under_',
        matchedKeyword: '@mention',
        senderName: '-minus',
        hitAt: new Date(BASE + 30 * 3_600_000),
      }),
    );
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without a token on every route', async () => {
    for (const path of ['/api/keyword-hits', '/api/keyword-hits/groups?group_by=task', '/api/keyword-hits/export']) {
      expect((await get(path, false)).status).toBe(401);
    }
    expect((await requestJson(panel.url, '/api/keyword-hits', { method: 'DELETE' })).status).toBe(401);
  });

  it.each([
    '/api/keyword-hits?limit=0',
    '/api/keyword-hits?limit=501',
    '/api/keyword-hits?offset=-1',
    '/api/keyword-hits?since=yesterday',
    '/api/keyword-hits?since=2025-01-02T00:00:00Z&until=2025-01-01T00:00:00Z',
    '/api/keyword-hits?unknown=1',
    '/api/keyword-hits/groups',
    '/api/keyword-hits/groups?group_by=sender',
    '/api/keyword-hits/export?until=soon',
  ])('answers 400 for %s', async (path) => {
    const response = await get<{ statusCode: number; message: string }>(path);
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
  });

  it('lists newest first with total and limit/offset pagination', async () => {
    const first = await get<Page>('/api/keyword-hits?limit=10');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(25);
    expect(first.body.items).toHaveLength(10);
    expect(first.body.items[0].text).toContain('HYPERLINK');
    expect(first.body.items[1].text).toBe('message number 23');
    const third = await get<Page>('/api/keyword-hits?limit=10&offset=20');
    expect(third.body.items.map((h) => h.text)).toEqual(['message number 4', 'message number 3', 'message number 2', 'message number 1', 'message number 0']);
    expect(third.body).toEqual(expect.objectContaining({ limit: 10, offset: 20, total: 25 }));
  });

  it('filters by account, task, chat, time range and text, alone and together', async () => {
    const count = async (query: string) => (await get<Page>(`/api/keyword-hits?limit=500&${query}`)).body.total;
    expect(await count('account=alice')).toBe(12);
    expect(await count('task=deals')).toBe(8);
    expect(await count('chat=-1001')).toBe(6);
    expect(await count('account=alice&task=deals')).toBe(4); // 0, 6, 12, 18
    expect(await count('account=alice&task=deals&chat=-1001')).toBe(2); // 0, 12
    // since is inclusive, until exclusive: 10:00 .. 14:00 → hits 10, 11, 12, 13.
    expect(await count('since=2025-01-01T10:00:00Z&until=2025-01-01T14:00:00Z')).toBe(4);
    // Offsets are honoured: 11:00+01:00 is 10:00Z.
    expect(await count('since=2025-01-01T11:00:00%2B01:00&until=2025-01-01T14:00:00Z')).toBe(4);
    expect(await count('q=NUMBER 1')).toBe(11); // 1, 10..19 (case-insensitive)
    expect(await count('q=100%25')).toBe(1); // % is literal
    expect(await count('q=_under_')).toBe(1);
    expect(await count('q=%25')).toBe(1);
    expect(await count('q=_')).toBe(1);
    expect(await count('q=tricky, "quoted')).toBe(1); // chat title
    expect(await count('account=nobody')).toBe(0);
  });

  it('groups by task, account and chat with count and latest hit', async () => {
    const byTask = await get<Groups>('/api/keyword-hits/groups?group_by=task');
    expect(byTask.status).toBe(200);
    expect(byTask.body.groups.map((g) => [g.key, g.count, g.latest_hit.text])).toEqual([
      ['tricky', 1, expect.stringContaining('HYPERLINK')],
      ['alerts', 16, 'message number 23'],
      ['deals', 8, 'message number 21'],
    ]);
    const byAccount = await get<Groups>('/api/keyword-hits/groups?group_by=account&task=deals');
    expect(byAccount.body.groups.map((g) => [g.key, g.count, g.latest_hit.text])).toEqual([
      ['bob', 4, 'message number 21'],
      ['alice', 4, 'message number 18'],
    ]);
    const byChat = await get<Groups>('/api/keyword-hits/groups?group_by=chat&account=alice');
    expect(byChat.body.groups.map((g) => [g.key, g.title, g.count])).toEqual([
      ['-1002', 'News', 6],
      ['-1001', 'Deals', 6],
    ]);
  });

  it('exports CSV with a BOM, RFC 4180 quoting and formula cells escaped, with the same filters', async () => {
    const response = await fetch(`${panel.url}/api/keyword-hits/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="keyword-hits-\d{8}-\d{6}\.csv"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'id,hit_at,account_name,task_name,chat_id,chat_title,message_thread_id,sender_id,sender_name,sender_username,message_id,matched_keyword,text,url,push_channel,push_status,push_error',
    );
    // 25 records (one spans two lines inside its quotes) and the final CRLF.
    expect(text.match(/\r\n/g)).toHaveLength(26);
    expect(lines[1]).toBe("1,2025-01-01T00:00:00.000Z,alice,deals,-1001,Deals,,42,Sender,sender,1000,number,message number 0,,telegram,pending,");
    const tricky = text.slice(text.indexOf('\r\n25,'));
    expect(tricky).toContain(`carol,tricky,-1003,"Tricky, ""quoted""",`);
    expect(tricky).toContain(`,'-minus,`);
    expect(tricky).toContain(`,'@mention,"'=HYPERLINK(""http://evil"")\nsecond line, with comma; 100% _under_",`);
    const filtered = await fetch(`${panel.url}/api/keyword-hits/export?account=alice&task=deals`, { headers: { authorization: `Bearer ${token}` } });
    const filteredLines = (await filtered.text()).split('\r\n').filter(Boolean);
    expect(filteredLines).toHaveLength(5);
    expect(filteredLines.slice(1).map((line) => line.split(',')[12])).toEqual(['message number 0', 'message number 6', 'message number 12', 'message number 18']);
  });

  it('deletes with the same filters and answers how many', async () => {
    const remove = (query: string) => requestJson<{ deleted: number }>(panel.url, `/api/keyword-hits${query}`, { method: 'DELETE', token });
    expect((await remove('?account=alice&task=deals&chat=-1001')).body).toEqual({ deleted: 2 });
    expect((await remove('?account=alice&task=deals&chat=-1001')).body).toEqual({ deleted: 0 });
    expect((await remove('?q=HYPERLINK')).body).toEqual({ deleted: 1 });
    expect((await remove('?since=2025-01-01T20:00:00Z')).body).toEqual({ deleted: 4 });
    expect((await get<Page>('/api/keyword-hits')).body.total).toBe(18);
    expect((await remove('?since=bad')).status).toBe(400);
    expect((await remove('')).body).toEqual({ deleted: 18 });
    expect((await get<Page>('/api/keyword-hits')).body.total).toBe(0);
  });
});

/** The export reads in keyset batches of 200 rows; these counts end on a partial and on an empty batch. */
describe('keyword hits CSV export across batches', () => {
  let panel: RunningPanel;
  let token: string;

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    const service = panel.app.get(KeywordHitsService);
    for (let n = 0; n < 401; n++) {
      expect(await service.record(hit(n, { accountName: n === 200 ? 'zed' : 'alice', messageId: 5000 + n, chatId: '-1009' }))).toBeDefined();
    }
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('writes every matching hit once and in id order, whatever batch the last one falls in', async () => {
    for (const [query, count] of [
      ['', 401],
      ['?account=alice', 400],
      ['?account=zed', 1],
    ] as const) {
      const response = await fetch(`${panel.url}/api/keyword-hits/export${query}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const ids = (await response.text())
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => Number(line.split(',')[0]));
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
  });
});
