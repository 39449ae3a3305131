// Run through tools/bench/panel-governor.mjs (TypeScript via @swc-node/register).
//
// What the account safety governor (issue 35) adds to an action that is within budget: the same
// sendMessage calls through GovernedTelegramGateway and straight to an in-memory gateway that
// answers at once, so the difference is the governor's own work (the budget check, the per-account
// chain, the counters). Target: under 1 ms per action.
import { loadavg } from 'node:os';
import type { Repository } from 'typeorm';
import type { ClusterService } from '../../apps/panel-api/src/app/cluster/cluster.service';
import { AccountGovernor } from '../../apps/panel-api/src/app/governor/account-governor';
import type { AccountSafety } from '../../apps/panel-api/src/app/governor/entities/account-safety.entity';
import { GovernedTelegramGateway } from '../../apps/panel-api/src/app/governor/governed-telegram-gateway';
import { SYSTEM_CLOCK } from '../../apps/panel-api/src/app/governor/governor-clock';
import type { SettingsService } from '../../apps/panel-api/src/app/settings/settings.service';
import type { TelegramGateway, TelegramMessage, TelegramSession } from '../../apps/panel-api/src/app/telegram/telegram-gateway';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const ACCOUNTS = Number(args['accounts'] ?? 1000);
const ACTIONS_PER_ACCOUNT = Number(args['actions'] ?? 20);
const CONCURRENCY = Number(args['concurrency'] ?? 50);
const ROUNDS = Number(args['rounds'] ?? 5);

let nextId = 1;
const message = (chatId: string): TelegramMessage => ({ id: nextId++, chatId, out: true, date: 0, text: 'x', buttons: [], hasMedia: false });
// Only sendMessage is called; the rest of the port is never reached.
const inner = { sendMessage: async (_session: TelegramSession, chat: string | number) => message(String(chat)) } as unknown as TelegramGateway;

// The default limits, with the per-minute cap at the actions per account: each action goes to its own
// chat (the per-chat spacing never applies), so every action is within budget and nothing waits.
const settings = {
  getGlobal: () => ({ safety_min_spacing_seconds: 3, safety_per_minute: ACTIONS_PER_ACCOUNT, safety_per_day: 500, safety_jitter_ms: 1500, safety_flood_pause_seconds: 600 }),
} as unknown as SettingsService;
const rows = { find: async () => [], save: async () => undefined, create: (row: unknown) => row, delete: async () => undefined } as unknown as Repository<AccountSafety>;

async function drive(gateway: TelegramGateway, round: number): Promise<number> {
  const jobs: Array<() => Promise<unknown>> = [];
  for (let account = 0; account < ACCOUNTS; account += 1) {
    const session: TelegramSession = { accountName: `r${round}-acc${account}`, sessionString: '' };
    for (let action = 0; action < ACTIONS_PER_ACCOUNT; action += 1) jobs.push(() => gateway.sendMessage(session, `chat-${action}`, 'hello'));
  }
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  // One instance: no replica ever hands it an account (onModuleInit, which subscribes, is not called).
  const cluster = { onOwnershipChange: () => () => undefined } as unknown as ClusterService;
  const governor = new AccountGovernor(settings, rows, SYSTEM_CLOCK, cluster);
  const governed = new GovernedTelegramGateway(inner, governor);
  const actions = ACCOUNTS * ACTIONS_PER_ACCOUNT;
  // Warm up both paths.
  await drive(inner, -1);
  await drive(governed, -2);
  const raw: number[] = [];
  const withGovernor: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    raw.push(await drive(inner, round));
    withGovernor.push(await drive(governed, round));
    const sample = governor.state(`r${round}-acc0`);
    if (sample.day_used !== ACTIONS_PER_ACCOUNT || sample.refused_today !== 0) throw new Error(`an action was not within budget: ${JSON.stringify(sample)}`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const perAction = (ms: number) => (ms * 1000) / actions;
  const added = perAction(median(withGovernor)) - perAction(median(raw));
  console.log(`governor bench: ${ACCOUNTS} accounts x ${ACTIONS_PER_ACCOUNT} actions (${actions} per round, all within budget), concurrency ${CONCURRENCY}, ${ROUNDS} rounds, load ${loadavg()[0].toFixed(2)}`);
  console.log(`  straight to the gateway: median ${median(raw).toFixed(1)} ms per round, ${perAction(median(raw)).toFixed(2)} µs per action`);
  console.log(`  through the governor:    median ${median(withGovernor).toFixed(1)} ms per round, ${perAction(median(withGovernor)).toFixed(2)} µs per action`);
  console.log(`  added per action: ${added.toFixed(2)} µs (${(added / 1000).toFixed(4)} ms); target < 1 ms: ${added < 1000 ? 'met' : 'NOT met'}`);
  process.exit(added < 1000 ? 0 : 2);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
