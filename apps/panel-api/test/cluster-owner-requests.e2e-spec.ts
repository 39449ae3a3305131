import { requestJson, testDatabaseDriver } from '@shared/testing';
import { DataSource } from 'typeorm';
import { AccountStatusService } from '../src/app/accounts/account-status.service';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { RunRegistry } from '../src/app/runs/run-registry';
import { clusterOf, clusterReplicas, openStream, until } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface RunStatus {
  state: string;
  runs: Array<{ run_id: string; account_name: string; state: string; success: boolean | null }>;
}

// Six seconds, not three: a replica stops trusting its lease a quarter of it before expiry, so a
// 3 s lease renewed every second survives a renewal 1.25 s late and a 6 s one 2.5 s. In one CI run on
// a starved machine, at 3 s, an account a login had just created had no owner.
const LEASE_SECONDS = 6;
const ANSWERED_BY = 'x-panel-replica';

/**
 * Issue 31 item 4: "run now", the run's status and cancel, session checks (now and as a job) and the
 * phone and QR login steps reach the replica that owns the account, wherever they arrive; a login of
 * a brand-new account stays on the replica that started it while its steps alternate between replicas.
 * On PostgreSQL two replicas of one database, each with its own empty data directory, sharing one
 * Telegram simulator: a step answered by the wrong replica would find no login there (404), so every
 * answer below also proves where it was made.
 */
describe('panel-api replicas: requests about an account are answered by its owner', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_owner', dirPrefix: 'panel-cluster-owner-', jwtSecret: 'h1-cluster-owner-requests-shared-jwt-0123456789', leaseSeconds: LEASE_SECONDS, telegram });
  const start = () => replicaSet.start();
  /** Two replicas that both see each other live. */
  const startTwo = async () => {
    const one = await start();
    const two = await start();
    const token = await loginAsAdmin(one);
    await until(() => clusterOf(one, token), (body) => body.replicas.length === 2, 10 * LEASE_SECONDS * 1000, 'both replicas to be live');
    return { one, two, token, oneId: one.app.get(ClusterService).replicaId, twoId: two.app.get(ClusterService).replicaId };
  };
  /** A few heartbeats on both replicas: a rebalance would have moved a lease by now. */
  const beat = async (...replicas: RunningPanel[]) => {
    for (let round = 0; round < 3; round++) for (const panel of replicas) await panel.app.get(ClusterService).heartbeat();
  };

  if (testDatabaseDriver() !== 'postgres') {
    it('SQLite: one instance answers a run now and a check itself', async () => {
      telegram.addBot({ username: 'h1_solo_bot', onMessage: () => ({ text: 'ok' }) });
      const panel = await start();
      const token = await loginAsAdmin(panel);
      const user = telegram.createUser({ phone: '+31 600 710 001' });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'solo', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
      const check = await requestJson<{ normal: number }>(panel.url, '/api/accounts/status/check', { method: 'POST', token, body: { account_names: ['solo'] } });
      expect(check.status).toBe(200);
      expect(check.body.normal).toBe(1);
      expect(check.headers.get(ANSWERED_BY)).toBeNull();
      const task = { name: 'solo-daily', account_name: 'solo', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h1_solo_bot', actions: [{ action: 1, text: '/hi' }] }] };
      expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
      const run = await requestJson<{ runs: Array<{ account_name: string }> }>(panel.url, '/api/sign-tasks/solo-daily/run', { method: 'POST', token, body: {} });
      expect(run.status).toBe(202);
      expect(run.body.runs.map((item) => item.account_name)).toEqual(['solo']);
    });
    return;
  }

  it('keeps a phone and a QR login of brand-new accounts on the replica that started them while the steps alternate', async () => {
    const { one, two, token, oneId, twoId } = await startTwo();
    const oneCluster = one.app.get(ClusterService);
    const twoCluster = two.app.get(ClusterService);

    // Phone login with a 2FA password: start on one, the code on two, the password on one.
    telegram.createUser({ phone: '+31 600 710 101', firstName: 'Newbie', password: 'pw-newbie', passwordHint: 'pw' });
    const started = await requestJson<{ status: string }>(one.url, '/api/accounts/login/start', { method: 'POST', token, body: { account_name: 'newbie', phone_number: '+31600710101' } });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('code_sent');
    expect(started.headers.get(ANSWERED_BY)).toBeNull();
    // The replica asked took the new account's lease, and a rebalance does not move it while the login lasts.
    expect(oneCluster.owns('newbie')).toBe(true);
    await beat(one, two);
    expect(oneCluster.owns('newbie')).toBe(true);
    expect(twoCluster.owns('newbie')).toBe(false);
    const code = telegram.lastLoginCode('+31600710101') ?? '';
    const codeStep = await requestJson<{ status: string; password_hint?: string }>(two.url, '/api/accounts/login/verify', { method: 'POST', token, body: { account_name: 'newbie', phone_code: code } });
    expect(codeStep.status).toBe(200);
    expect(codeStep.body).toMatchObject({ status: 'password_required', password_hint: 'pw' });
    expect(codeStep.headers.get(ANSWERED_BY)).toBe(oneId);
    // A wrong password through the other replica: the owner's 400 in the error shape, and the login goes on.
    const wrong = await requestJson<{ code: string }>(two.url, '/api/accounts/login/verify', { method: 'POST', token, body: { account_name: 'newbie', phone_code: code, password: 'nope' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('login_code_invalid');
    expect(wrong.headers.get(ANSWERED_BY)).toBe(oneId);
    const done = await requestJson<{ status: string; account: { account_name: string } }>(one.url, '/api/accounts/login/verify', {
      method: 'POST',
      token,
      body: { account_name: 'newbie', phone_code: code, password: 'pw-newbie' },
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('success');
    expect(done.body.account.account_name).toBe('newbie');
    expect(done.headers.get(ANSWERED_BY)).toBeNull();

    // QR login with a password: start on two, status on one, the password on one, the end on two.
    const quinn = telegram.createUser({ phone: '+31 600 710 102', firstName: 'Quinn', password: 'pw-quinn', passwordHint: 'q' });
    const qr = await requestJson<{ login_id: string; state: string }>(two.url, '/api/accounts/qr-login/start', { method: 'POST', token, body: { account_name: 'quinn' } });
    expect(qr.status).toBe(200);
    expect(qr.body.state).toBe('waiting_scan');
    const loginId = qr.body.login_id;
    expect(twoCluster.owns('quinn')).toBe(true);
    await beat(one, two);
    expect(twoCluster.owns('quinn')).toBe(true);
    const waiting = await requestJson<{ state: string }>(one.url, `/api/accounts/qr-login/${loginId}`, { token });
    expect(waiting.status).toBe(200);
    expect(waiting.body.state).toBe('waiting_scan');
    expect(waiting.headers.get(ANSWERED_BY)).toBe(twoId);
    telegram.scanQr(loginId, quinn.id, { confirm: true });
    const needsPassword = await requestJson<{ state: string }>(one.url, `/api/accounts/qr-login/${loginId}`, { token });
    expect(needsPassword.body.state).toBe('password_required');
    const qrDone = await requestJson<{ state: string; account?: { account_name: string } }>(one.url, `/api/accounts/qr-login/${loginId}/password`, { method: 'POST', token, body: { password: 'pw-quinn' } });
    expect(qrDone.status).toBe(200);
    expect(qrDone.body.state).toBe('success');
    expect(qrDone.body.account?.account_name).toBe('quinn');
    expect(qrDone.headers.get(ANSWERED_BY)).toBe(twoId);
    expect((await requestJson<{ state: string }>(two.url, `/api/accounts/qr-login/${loginId}`, { token })).body.state).toBe('success');
    // A login id no replica knows: 404 in the error shape, also after asking the other replica.
    const unknown = await requestJson<{ code: string }>(one.url, '/api/accounts/qr-login/no-such-login-id', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('login_not_found');
    // Without a token the answer is 401 wherever the request lands.
    expect((await requestJson(one.url, `/api/accounts/qr-login/${loginId}`)).status).toBe(401);

    // The accounts the logins stored stay where they were logged in (until a rebalance moves one after the login).
    const view = await clusterOf(two, token);
    expect(view.accounts.find((account) => account.name === 'newbie')?.owner).toBe(oneId);
    expect(view.accounts.find((account) => account.name === 'quinn')?.owner).toBe(twoId);

    // A login cancelled on the other replica is cancelled at the one that holds it, and its new account's lease is handed back.
    telegram.createUser({ phone: '+31 600 710 103' });
    expect((await requestJson(one.url, '/api/accounts/login/start', { method: 'POST', token, body: { account_name: 'dropped', phone_number: '+31600710103' } })).status).toBe(200);
    const cancelled = await requestJson(two.url, '/api/accounts/login/dropped', { method: 'DELETE', token });
    expect(cancelled.status).toBe(204);
    expect(cancelled.headers.get(ANSWERED_BY)).toBe(oneId);
    await beat(one);
    expect(oneCluster.owns('dropped')).toBe(false);
    expect((await requestJson(two.url, '/api/accounts/login/verify', { method: 'POST', token, body: { account_name: 'dropped', phone_code: '12345' } })).status).toBe(404);
  });

  it('runs "run now", answers its status, checks sessions and wakes devices at the owner of each account', async () => {
    const checkins: string[] = [];
    telegram.addBot({
      username: 'h1_owner_bot',
      onMessage: (text) => {
        checkins.push(text);
        return { text: 'Checked in' };
      },
    });
    const pickerGroup = telegram.addGroup({ id: '-1001000710200', title: 'Owner picker group' });
    const one = await start();
    const token = await loginAsAdmin(one);
    for (const [index, name] of ['acct-a', 'acct-b'].entries()) {
      const user = telegram.createUser({ phone: `+31 600 710 2${String(index).padStart(2, '0')}` });
      telegram.joinChat(user.id, pickerGroup.id);
      expect((await requestJson(one.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: name, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
    const two = await start();
    const oneId = one.app.get(ClusterService).replicaId;
    const twoId = two.app.get(ClusterService).replicaId;
    const view = await until(
      () => clusterOf(one, token),
      (body) => body.replicas.length === 2 && body.replicas.every((replica) => replica.accounts.length === 1) && body.accounts.every((account) => account.owner !== null),
      10 * LEASE_SECONDS * 1000,
      'one account on each replica',
    );
    const ofOne = view.replicas.find((replica) => replica.id === oneId)?.accounts[0] ?? '';
    const ofTwo = view.replicas.find((replica) => replica.id === twoId)?.accounts[0] ?? '';
    const chats = [{ chat_id: '@h1_owner_bot', actions: [{ action: 1, text: '/checkin' }] }];

    // A task of the other replica's account: run now, its status and its history through replica one.
    const single = { name: 'single', account_name: ofTwo, sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats };
    expect((await requestJson(one.url, '/api/sign-tasks', { method: 'POST', token, body: single })).status).toBe(201);
    const run = await requestJson<{ runs: Array<{ run_id: string; account_name: string }> }>(one.url, '/api/sign-tasks/single/run', { method: 'POST', token, body: {} });
    expect(run.status).toBe(202);
    expect(run.headers.get(ANSWERED_BY)).toBe(twoId);
    expect(run.body.runs.map((item) => item.account_name)).toEqual([ofTwo]);
    expect(two.app.get(RunRegistry).ofTask('single').map((record) => record.run_id)).toEqual([run.body.runs[0].run_id]);
    expect(one.app.get(RunRegistry).ofTask('single')).toEqual([]);
    const finished = await until(
      async () => (await requestJson<RunStatus>(one.url, '/api/sign-tasks/single/run/status', { token })).body,
      (body) => body.runs.length === 1 && body.runs[0].state === 'finished',
      20_000,
      'the forwarded run to finish',
    );
    expect(finished.runs[0]).toMatchObject({ run_id: run.body.runs[0].run_id, account_name: ofTwo, success: true });
    expect(checkins).toEqual(['/checkin']);
    // Cancel goes to the owner too.
    expect((await requestJson(one.url, '/api/sign-tasks/single/run/cancel', { method: 'POST', token })).headers.get(ANSWERED_BY)).toBe(twoId);
    // Only a replica can mark a request as forwarded: a caller's own header is dropped on arrival, so
    // the request still goes to the owner instead of being answered by a replica without the session …
    const forged = await requestJson(one.url, '/api/sign-tasks/single/run/status', { token, headers: { 'x-panel-forwarded-by': `${oneId}.${Date.now()}.AAAA` } });
    expect([forged.status, forged.headers.get(ANSWERED_BY)]).toEqual([200, twoId]);
    // … and a caller without a valid token is answered 401 by the replica asked, which looks nothing up.
    const anonymous = await requestJson(one.url, `/api/accounts/${ofTwo}/devices`);
    expect([anonymous.status, anonymous.headers.get(ANSWERED_BY)]).toEqual([401, null]);
    // The task editor's chat picker reads the account's dialogs at its owner, which holds the session.
    const picker = await requestJson<{ chats: Array<{ id: string; title: string }> }>(one.url, `/api/accounts/${ofTwo}/chats?q=picker`, { token });
    expect([picker.status, picker.headers.get(ANSWERED_BY)]).toEqual([200, twoId]);
    expect(picker.body.chats).toEqual([{ id: pickerGroup.id, title: 'Owner picker group', kind: 'group' }]);

    // A task of both accounts: each account runs at its owner; status and cancel merge both replicas.
    const both = { name: 'both', account_names: [ofOne, ofTwo], sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats };
    expect((await requestJson(two.url, '/api/sign-tasks', { method: 'POST', token, body: both })).status).toBe(201);
    // The live sign history of replica one, open while the runs go: it shows the run replica two records too.
    const stream = await openStream(one.url, token);
    // Slow enough calls that both runs are still going when the list of runs in progress is asked.
    telegram.setLatency(1_000);
    const split = await requestJson<{ runs: Array<{ run_id: string; account_name: string }> }>(one.url, '/api/sign-tasks/both/run', { method: 'POST', token, body: {} });
    expect(split.status).toBe(202);
    expect(split.body.runs.map((item) => item.account_name).sort()).toEqual([ofOne, ofTwo].sort());
    const runOf = (account: string) => split.body.runs.find((item) => item.account_name === account)?.run_id;
    expect(one.app.get(RunRegistry).ofTask('both').map((record) => record.run_id)).toEqual([runOf(ofOne)]);
    expect(two.app.get(RunRegistry).ofTask('both').map((record) => record.run_id)).toEqual([runOf(ofTwo)]);
    // The runs in progress of every replica, asked of either one.
    for (const panel of [one, two]) {
      const active = await requestJson<{ runs: Array<{ run_id: string; replica_id: string }>; total: number; failures: unknown[] }>(panel.url, '/api/sign-tasks/runs/active', { token });
      expect(active.status).toBe(200);
      expect(active.body.runs.map((item) => `${item.run_id} ${item.replica_id}`).sort()).toEqual([`${runOf(ofOne)} ${oneId}`, `${runOf(ofTwo)} ${twoId}`].sort());
      expect([active.body.total, active.body.failures]).toEqual([2, []]);
    }
    telegram.setLatency(0);
    const merged = await until(
      async () => (await requestJson<RunStatus>(two.url, '/api/sign-tasks/both/run/status', { token })).body,
      (body) => body.runs.length === 2 && body.runs.every((item) => item.state === 'finished'),
      20_000,
      'both runs to finish, seen from one replica',
    );
    expect(merged.runs.map((item) => item.run_id).sort()).toEqual([runOf(ofOne), runOf(ofTwo)].sort());
    await until(async () => stream.text(), (text) => [runOf(ofOne), runOf(ofTwo)].every((id) => text.includes(`id: ${id}\nevent: sign_log`)), 10_000, 'both runs on the live sign history of replica one');
    stream.abort();
    expect(checkins).toHaveLength(3);
    const cancel = await requestJson<{ cancelled: number }>(one.url, '/api/sign-tasks/both/run/cancel', { method: 'POST', token });
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelled).toBe(0);
    // Only one account, the other replica's: forwarded whole.
    const onlyTwo = await requestJson<{ runs: Array<{ account_name: string }> }>(one.url, '/api/sign-tasks/both/run', { method: 'POST', token, body: { account_name: ofTwo } });
    expect(onlyTwo.status).toBe(202);
    expect(onlyTwo.headers.get(ANSWERED_BY)).toBe(twoId);
    await until(async () => checkins.length, (count) => count === 4, 20_000, 'the single-account run to check in');
    // A batch run of the task of both accounts: each account runs at its owner too, recorded there as `batch`
    // (a trigger that a caller names itself is not taken).
    await until(async () => [...one.app.get(RunRegistry).active(), ...two.app.get(RunRegistry).active()].length, (count) => count === 0, 20_000, 'the runs before to end');
    const batch = await requestJson<{ results: Array<{ name: string; ok: boolean; message: string }> }>(one.url, '/api/batch/sign-tasks', {
      method: 'POST',
      token,
      headers: { 'x-panel-run-trigger': 'rerun' },
      body: { action: 'run', names: ['both'] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results).toEqual([{ name: 'both', ok: true, result: 'done', message: 'started 2 run(s)' }]);
    await until(async () => checkins.length, (count) => count === 6, 20_000, 'both batch runs to check in');
    type History = { history: Array<{ account_name: string; trigger: string; state: string; success: boolean }> };
    const batchRuns = await until(
      async () => (await requestJson<History>(two.url, '/api/sign-tasks/both/history', { token })).body.history.filter((entry) => entry.trigger === 'batch'),
      (entries) => entries.length === 2,
      20_000,
      'both batch runs in the history',
    );
    expect(batchRuns.map((entry) => [entry.account_name, entry.state, entry.success]).sort()).toEqual([[ofOne, 'finished', true], [ofTwo, 'finished', true]].sort());

    // Session checks: each account is checked by its owner, now and as a background job.
    const checkedOnOne = jest.spyOn(one.app.get(AccountStatusService), 'checkOne');
    const checkedOnTwo = jest.spyOn(two.app.get(AccountStatusService), 'checkOne');
    try {
      const check = await requestJson<{ total: number; normal: number; results: Array<{ account_name: string; ok: boolean }> }>(one.url, '/api/accounts/status/check', {
        method: 'POST',
        token,
        body: { account_names: [ofOne, ofTwo] },
      });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ total: 2, normal: 2 });
      expect(check.body.results.map((item) => item.account_name).sort()).toEqual([ofOne, ofTwo].sort());
      expect(checkedOnOne.mock.calls.map((call) => call[0])).toEqual([ofOne]);
      expect(checkedOnTwo.mock.calls.map((call) => call[0])).toEqual([ofTwo]);

      const job = await requestJson<{ job_id: string }>(one.url, '/api/accounts/status/check-jobs', { method: 'POST', token, body: { account_names: [ofTwo] } });
      expect(job.status).toBe(202);
      const jobDone = await until(
        async () => (await requestJson<{ status: string; result: { normal: number } }>(one.url, `/api/accounts/status/check-jobs/${job.body.job_id}`, { token })).body,
        (body) => body.status === 'completed',
        20_000,
        'the check job to complete',
      );
      expect(jobDone.result.normal).toBe(1);
      // The job's state is a row of the database: the other replica answers it itself.
      const elsewhere = await requestJson<{ job_id: string; status: string }>(two.url, `/api/accounts/status/check-jobs/${job.body.job_id}`, { token });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body).toMatchObject({ job_id: job.body.job_id, status: 'completed' });
      expect(elsewhere.headers.get(ANSWERED_BY)).toBeNull();
      const finishedCancel = await requestJson<{ code: string }>(two.url, `/api/accounts/status/check-jobs/${job.body.job_id}/cancel`, { method: 'POST', token });
      expect(finishedCancel.status).toBe(409);
      expect(finishedCancel.body.code).toBe('check_job_not_running');
      const unknownJob = await requestJson<{ code: string }>(two.url, '/api/accounts/status/check-jobs/6f1c1d2e-0000-4000-8000-00000000dead', { token });
      expect(unknownJob.status).toBe(404);
      expect(unknownJob.body.code).toBe('check_job_not_found');
      expect(checkedOnOne.mock.calls.map((call) => call[0])).toEqual([ofOne]);
      expect(checkedOnTwo.mock.calls.map((call) => call[0])).toEqual([ofTwo, ofTwo]);
    } finally {
      checkedOnOne.mockRestore();
      checkedOnTwo.mockRestore();
    }

    // Device keep-alive: each replica wakes the accounts it owns; the manual run answers for all of them.
    const keepalive = await requestJson<{ woken: number; results: Array<{ account_name: string; outcome: string }> }>(one.url, '/api/config/settings/device-keepalive/run', {
      method: 'POST',
      token,
      body: { force: true },
    });
    expect(keepalive.status).toBe(200);
    expect(keepalive.body.woken).toBe(2);
    expect(keepalive.body.results.map((item) => [item.account_name, item.outcome])).toEqual([ofOne, ofTwo].sort().map((name) => [name, 'woken']));
    const runs = (await one.app.get(DataSource).query(`SELECT "replica_id", "run" FROM "keepalive_runs" ORDER BY "replica_id"`)) as Array<{ replica_id: string; run: string }>;
    const wokenBy = new Map(runs.map((row) => [row.replica_id, (JSON.parse(row.run) as { results: Array<{ account_name: string }> }).results.map((item) => item.account_name)]));
    expect(wokenBy.get(oneId)).toEqual([ofOne]);
    expect(wokenBy.get(twoId)).toEqual([ofTwo]);
  });
});
