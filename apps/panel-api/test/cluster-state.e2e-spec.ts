import { createTestPostgresDatabase, requestJson, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface TaskView {
  name: string;
  sign_at?: string;
  enabled: boolean;
  updated_at: string;
}

const dailyTask = {
  name: 'daily',
  account_name: 'alice',
  sign_at: '08:30',
  execution_mode: 'fixed',
  chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: 'hi' }] }],
};

/**
 * Issue 31 item 1, tasks: the database holds them, so replicas with their own (empty) data
 * directories serve the same tasks, and a data directory of an earlier version is moved in once.
 */
describe('panel-api state in the database (tasks)', () => {
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const panels: RunningPanel[] = [];
  let database: TestPostgresDatabase | undefined;

  const newDir = () => {
    const dir = tempDir('panel-cluster-state-');
    dirs.push(dir);
    return dir.path;
  };
  const start = async (dataDir: string) => {
    const panel = await startPanel({ reuse: { dataDir, databaseUrl: database?.url } });
    panels.push(panel);
    return panel;
  };

  beforeEach(async () => {
    if (testDatabaseDriver() === 'postgres') database = await createTestPostgresDatabase('h3_cluster_state');
  });

  afterEach(async () => {
    for (const panel of panels.splice(0)) await panel.stop();
    await database?.drop();
    database = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('moves the task files of an existing data directory into the database once; a second start changes nothing', async () => {
    const dataDir = newDir();
    const folder = join(dataDir, '.signer', 'tasks');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'daily.json'), JSON.stringify({ ...dailyTask, enabled: true, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' }));
    writeFileSync(join(folder, 'broken.json'), '{"name": "broken", "chats": 5}');

    const first = await start(dataDir);
    const token = await loginAsAdmin(first);
    const listed = await requestJson<{ tasks: TaskView[] }>(first.url, '/api/sign-tasks', { token });
    expect(listed.body.tasks.map((task) => [task.name, task.sign_at, task.updated_at])).toEqual([['daily', '08:30', '2025-01-01T00:00:00.000Z']]);
    expect(existsSync(folder)).toBe(false);
    const moved = () => readdirSync(join(dataDir, '.signer')).filter((name) => name.startsWith('tasks.imported-'));
    expect(moved()).toHaveLength(1);
    // The unreadable file is kept where the folder went, for a person to look at.
    expect(readdirSync(join(dataDir, '.signer', moved()[0])).sort()).toEqual(['broken.json', 'daily.json']);
    expect((await requestJson(first.url, '/api/sign-tasks/daily/disable', { method: 'POST', token })).status).toBe(200);
    await first.stop();

    const second = await start(dataDir);
    const again = await requestJson<{ tasks: TaskView[] }>(second.url, '/api/sign-tasks', { token: await loginAsAdmin(second) });
    expect(again.body.tasks.map((task) => [task.name, task.enabled])).toEqual([['daily', false]]);
    expect(moved()).toHaveLength(1);
  });

  const onPostgres = testDatabaseDriver() === 'postgres' ? it : it.skip;

  onPostgres('serves the same tasks from two replicas on one PostgreSQL database, each with its own empty data directory', async () => {
    const one = await start(newDir());
    const two = await start(newDir());
    const oneToken = await loginAsAdmin(one);
    const twoToken = await loginAsAdmin(two);

    expect((await requestJson(one.url, '/api/sign-tasks', { method: 'POST', token: oneToken, body: dailyTask })).status).toBe(201);
    // Served by the other at once: a read brings in every write committed before it.
    expect((await requestJson<TaskView>(two.url, '/api/sign-tasks/daily', { token: twoToken })).body).toMatchObject({ name: 'daily', sign_at: '08:30' });
    // The name is taken on every replica.
    expect((await requestJson(two.url, '/api/sign-tasks', { method: 'POST', token: twoToken, body: dailyTask })).status).toBe(409);

    expect((await requestJson(two.url, '/api/sign-tasks/daily', { method: 'PUT', token: twoToken, body: { ...dailyTask, sign_at: '09:45' } })).status).toBe(200);
    expect((await requestJson<TaskView>(one.url, '/api/sign-tasks/daily', { token: oneToken })).body.sign_at).toBe('09:45');

    expect((await requestJson(one.url, '/api/sign-tasks/daily', { method: 'DELETE', token: oneToken })).status).toBe(204);
    expect((await requestJson(two.url, '/api/sign-tasks/daily', { token: twoToken })).status).toBe(404);
    expect((await requestJson(two.url, '/api/sign-tasks/daily', { method: 'DELETE', token: twoToken })).status).toBe(404);
  });
});
