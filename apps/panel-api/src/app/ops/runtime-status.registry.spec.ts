import { RuntimeStatusRegistry } from './runtime-status.registry';

describe('RuntimeStatusRegistry', () => {
  it('asks every reporter on each call and turns a throwing reporter into an error entry', async () => {
    const registry = new RuntimeStatusRegistry();
    let jobs = 1;
    registry.register('scheduler', () => ({ state: 'running', details: { jobs } }));
    registry.register('listeners', async () => {
      throw new Error('listener crashed');
    });
    expect(await registry.collect()).toEqual({
      listeners: { state: 'error', details: { message: 'listener crashed' } },
      scheduler: { state: 'running', details: { jobs: 1 } },
    });
    jobs = 2;
    registry.unregister('listeners');
    expect(await registry.collect()).toEqual({ scheduler: { state: 'running', details: { jobs: 2 } } });
  });
});
