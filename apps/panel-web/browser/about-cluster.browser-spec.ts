import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createTestPostgresDatabase, launchChromium, tempDir, TestPostgresDatabase } from '@shared/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loginAsAdmin, RunningPanel, startPanel } from '../../panel-api/test/harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { clusterOf, until } from '../../panel-api/test/cluster-harness';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TelegramSimulator } from '../../panel-api/test/telegram-simulator';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TELEGRAM_GATEWAY } from '../../panel-api/src/app/telegram/telegram-gateway';
import { DESKTOP, logIn, newPage, PHONE, screenshot, scrollsSideways, seriousAxeViolations, startWebPanel, WEB_ROOT, WebPanel } from './support';

const OWNED = ['alice', 'bob', 'carol'];

/**
 * Issue 31 item 5: the About page shows the instances. On SQLite (this suite's database) one plain
 * line; with two replicas on one PostgreSQL database (127.0.0.1:5432, as the e2e steps use) each
 * replica with its address, version, heartbeat, leadership and accounts, and an account no replica
 * may own highlighted as between owners.
 */
describe('panel-web: the instances on the About page', () => {
  it('says in one line that a SQLite instance runs every account', async () => {
    const web: WebPanel = await startWebPanel();
    try {
      const { page, context, errors } = await newPage(web, DESKTOP);
      await logIn(page, { path: '/login?next=%2Fabout' });
      await page.waitForURL(/\/about$/);
      const card = page.getByRole('region', { name: 'Instances' });
      await card.getByText('One instance (SQLite): it runs all 0 accounts itself; replicas need PostgreSQL.').waitFor();
      expect(await card.getByRole('region').count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await web.close();
    }
  });

  describe('two replicas on PostgreSQL', () => {
    const telegram = new TelegramSimulator();
    const panels: RunningPanel[] = [];
    const dirs: Array<ReturnType<typeof tempDir>> = [];
    let database: TestPostgresDatabase | undefined;
    let browser: Browser | undefined;

    const start = async (replicaId: string, webRoot?: string) => {
      const dir = tempDir('panel-web-about-cluster-');
      dirs.push(dir);
      const panel = await startPanel({
        reuse: { dataDir: dir.path, databaseUrl: database?.url },
        env: {
          MSGR_SESSION_MODE: 'string',
          APP_CLUSTER_LEASE_SECONDS: '3',
          APP_CLUSTER_REPLICA_ID: replicaId,
          APP_JWT_SECRET: 'h2-about-cluster-shared-jwt-secret-0123456789',
          // Neither replica may own `drifter`: once its lease is handed back it stays between owners.
          APP_MONITOR_ACCOUNT_ALLOWLIST: OWNED.join(','),
        },
        overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
        webRoot,
      });
      panels.push(panel);
      return panel;
    };

    beforeAll(async () => {
      database = await createTestPostgresDatabase('h2_about_cluster');
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      for (const panel of panels.splice(0)) await panel.stop();
      await database?.drop();
      for (const dir of dirs.splice(0)) dir.remove();
    });

    it('lists each live replica with its accounts and highlights the account between owners, at 1280 and 390 px', async () => {
      const one = await start('panel-api-a', WEB_ROOT);
      const token = await loginAsAdmin(one);
      for (const [index, account] of [...OWNED, 'drifter'].entries()) {
        const user = telegram.createUser({ phone: `+31 600 790 ${String(index).padStart(3, '0')}` });
        const imported = await fetch(`${one.url}/api/accounts/import-session`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ account_name: account, session_string: telegram.issueSession(user.id) }),
        });
        expect(imported.status).toBe(201);
      }
      await start('panel-api-b');
      // The import took drifter's lease; handed back, no replica may take it again.
      await one.app.get(DataSource).query(`UPDATE "account_leases" SET "owner" = NULL, "expires_at" = 0 WHERE "account" = 'drifter'`);
      await until(
        () => clusterOf(one, token),
        (view) => view.replicas.length === 2 && view.replicas.every((replica) => replica.accounts.length > 0) && view.accounts.find((account) => account.name === 'drifter')?.owner === null,
        30_000,
        'both replicas to own accounts and drifter to be between owners',
      );

      const web = { panel: one, telegram, browser: browser as Browser, close: async () => undefined };
      for (const [viewport, name] of [
        [DESKTOP, 'about-cluster-desktop'],
        [PHONE, 'about-cluster-phone'],
      ] as const) {
        const { page, context, errors } = await newPage(web, viewport);
        await logIn(page, { path: '/login?next=%2Fabout' });
        await page.waitForURL(/\/about$/);
        const card = page.getByRole('region', { name: 'Instances' });
        await card.getByText('2 live replicas share 4 accounts. This page was answered by panel-api-a.').waitFor();
        const a = card.getByRole('region', { name: 'Replica panel-api-a' });
        const b = card.getByRole('region', { name: 'Replica panel-api-b' });
        await a.getByText('This replica').waitFor();
        expect(await b.getByText('This replica').count()).toBe(0);
        // One of the two leads; each shows its address, version and a heartbeat seconds ago.
        expect((await a.getByText('Leader').count()) + (await b.getByText('Leader').count())).toBe(1);
        await a.getByText(one.url.replace(/\/$/, ''), { exact: false }).waitFor();
        for (const replica of [a, b]) {
          await replica.getByText(/· version /).waitFor();
          await replica.getByText(/(now|seconds? ago)$/).waitFor();
          await replica.getByText(/^Accounts \([12]\):/).waitFor();
        }
        const listed = `${await a.innerText()}\n${await b.innerText()}`;
        for (const account of OWNED) expect(listed).toContain(account);
        expect(listed).not.toContain('drifter');
        const between = card.getByRole('alert');
        await between.getByText('Accounts between owners: 1').waitFor();
        await between.getByText('drifter').waitFor();

        expect(await scrollsSideways(page)).toBe(false);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, name);
        expect(errors).toEqual([]);
        await context.close();
      }
    });
  });
});
