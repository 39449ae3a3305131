import { MonitorError } from '../common/monitor-error';
import { summariseDelivery } from './webhooks.controller';

describe('summariseDelivery', () => {
  const payload = { action: 'opened', installation: { id: 77 }, repository: { full_name: 'acme/api' }, issue: { number: 1 } };

  it('keeps the JSON body as received and reads what routing needs', () => {
    const raw = Buffer.from(JSON.stringify(payload));
    expect(summariseDelivery(payload, raw, 'application/json')).toEqual({ action: 'opened', installationId: 77, repositoryFullName: 'acme/api', payload: raw.toString() });
  });

  it('takes the payload field of a form delivery as the JSON text', () => {
    const json = JSON.stringify(payload);
    const raw = Buffer.from(`payload=${encodeURIComponent(json)}`);
    expect(summariseDelivery({ payload: json }, raw, 'application/x-www-form-urlencoded')).toMatchObject({ payload: json, installationId: 77, action: 'opened' });
  });

  it('answers nulls for deliveries without action, installation or repository (ping)', () => {
    const ping = { zen: 'Keep it logically awesome.', hook_id: 1 };
    expect(summariseDelivery(ping, Buffer.from(JSON.stringify(ping)), 'application/json')).toMatchObject({ action: null, installationId: null, repositoryFullName: null });
  });

  it('clips overlong values to their columns', () => {
    const long = { action: 'a'.repeat(100), repository: { full_name: `o/${'r'.repeat(300)}` } };
    const summary = summariseDelivery(long, Buffer.from(JSON.stringify(long)), 'application/json');
    expect(summary.action).toHaveLength(64);
    expect(summary.repositoryFullName).toHaveLength(255);
  });

  it.each([
    ['a form without payload', { other: '1' }, 'application/x-www-form-urlencoded'],
    ['a payload that is not JSON', { payload: '{nope' }, 'application/x-www-form-urlencoded'],
    ['a JSON array', [1, 2], 'application/json'],
  ])('refuses %s with validation_failed', (_name, body, contentType) => {
    expect(() => summariseDelivery(body, Buffer.from('x'), contentType)).toThrow(MonitorError);
  });
});
