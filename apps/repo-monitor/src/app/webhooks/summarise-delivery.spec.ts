import { MonitorError } from '../common/monitor-error';
import { summariseDelivery } from './delivery-body';

describe('summariseDelivery', () => {
  const payload = { action: 'opened', installation: { id: 77 }, repository: { full_name: 'acme/api' }, issue: { number: 1 } };

  it('keeps the JSON body as received and reads what routing needs', () => {
    const raw = Buffer.from(JSON.stringify(payload));
    expect(summariseDelivery(raw, 'application/json')).toEqual({ action: 'opened', installationId: 77, repositoryFullName: 'acme/api', payload: raw.toString() });
  });

  it('takes the payload field of a form delivery as the JSON text', () => {
    const json = JSON.stringify(payload);
    const raw = Buffer.from(`payload=${encodeURIComponent(json)}`);
    expect(summariseDelivery(raw, 'application/x-www-form-urlencoded')).toMatchObject({ payload: json, installationId: 77, action: 'opened' });
  });

  it('answers nulls for deliveries without action, installation or repository (ping)', () => {
    const ping = { zen: 'Keep it logically awesome.', hook_id: 1 };
    expect(summariseDelivery(Buffer.from(JSON.stringify(ping)), 'application/json')).toMatchObject({ action: null, installationId: null, repositoryFullName: null });
  });

  it('clips overlong values to their columns', () => {
    const long = { action: 'a'.repeat(100), repository: { full_name: `o/${'r'.repeat(300)}` } };
    const summary = summariseDelivery(Buffer.from(JSON.stringify(long)), 'application/json');
    expect(summary.action).toHaveLength(64);
    expect(summary.repositoryFullName).toHaveLength(255);
  });

  it('keeps __proto__ and constructor keys as data, touching no prototype, and stores the text unchanged', () => {
    const text = '{"action":"created","__proto__":{"polluted":true,"action":"evil"},"constructor":{"prototype":{"polluted":true}},"repository":{"full_name":"acme/api"}}';
    const summary = summariseDelivery(Buffer.from(text), 'application/json');
    expect(summary).toMatchObject({ action: 'created', repositoryFullName: 'acme/api', payload: text });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const reparsed = JSON.parse(summary.payload) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(reparsed, '__proto__')).toBe(true);
    expect(JSON.stringify(reparsed)).toBe(text);
  });

  it('does not take routing fields from a prototype', () => {
    const summary = summariseDelivery(Buffer.from('{"__proto__":{"action":"opened","repository":{"full_name":"x/y"}}}'), 'application/json');
    expect(summary).toMatchObject({ action: null, repositoryFullName: null });
  });

  it.each([
    ['a form without payload', 'other=1', 'application/x-www-form-urlencoded'],
    ['a payload that is not JSON', 'payload=%7Bnope', 'application/x-www-form-urlencoded'],
    ['a body that is not JSON', '{nope', 'application/json'],
    ['a JSON array', '[1,2]', 'application/json'],
    ['JSON null', 'null', 'application/json'],
  ])('refuses %s with validation_failed', (_name, body, contentType) => {
    expect(() => summariseDelivery(Buffer.from(body), contentType)).toThrow(MonitorError);
  });
});
