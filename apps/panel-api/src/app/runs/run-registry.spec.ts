import type { PanelConfig } from '../config/panel-config';
import { RunRegistry } from './run-registry';

const config = { runs: { activeLogCleanupDelaySeconds: 60, runStatusCleanupDelaySeconds: 600 } } as unknown as PanelConfig;

describe('RunRegistry', () => {
  let registry: RunRegistry;
  beforeEach(() => {
    registry = new RunRegistry(config);
  });
  afterEach(() => registry.onModuleDestroy());

  const start = () => registry.create({ task_name: 'daily', account_name: 'alice', trigger: 'manual', timeout_seconds: 60 });

  it('keeps a finalizing run active until finish(), so an empty active list means its history is written', () => {
    const run = start();
    registry.update(run, { phase: 'finalizing', state: 'finished', success: true, finished_at: new Date().toISOString() });
    expect(registry.active()).toEqual([run]);
    expect(registry.activeFor('daily', 'alice')).toEqual([run]);
    registry.finish(run);
    expect(registry.active()).toEqual([]);
    expect(registry.ofTask('daily')).toEqual([run]);
  });

  it('cancels only runs that are still running, not one that is writing its outcome', () => {
    const running = start();
    const finalizing = registry.create({ task_name: 'daily', account_name: 'bob', trigger: 'manual', timeout_seconds: 60 });
    registry.update(finalizing, { phase: 'finalizing', state: 'finished' });
    expect(registry.cancel('daily')).toBe(1);
    expect(running.abort?.signal.aborted).toBe(true);
    expect(finalizing.abort?.signal.aborted).toBe(false);
  });
});
