// The Telegram simulator as its own process (TelegramSimulatorServer), for the multi-process proof:
//   node -r @swc-node/register apps/panel-api/test/telegram-simulator-process.ts [--stale-ms 1500]
// (SWC_NODE_PROJECT=apps/panel-api/tsconfig.spec.json, which resolves the @shared/... aliases). Prints one JSON line with its gateway and
// control URLs once it listens, and stops on SIGTERM or when its parent's stdin closes.
import { TelegramSimulatorServer } from './telegram-simulator-server';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

async function main(): Promise<void> {
  const server = new TelegramSimulatorServer({ staleMs: option('stale-ms', 1500) });
  const urls = await server.listen(option('gateway-port', 0), option('control-port', 0));
  process.stdout.write(`${JSON.stringify(urls)}\n`);
  const stop = (): void => void server.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // An orphan (its parent gone) stops instead of holding the ports.
  process.stdin.resume();
  process.stdin.once('end', stop);
}

void main();
