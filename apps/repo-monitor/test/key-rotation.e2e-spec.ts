import { RawVariables } from '@shared/config';
import { keyIdOf, parseMasterKey } from '@shared/crypto';
import { requestJson } from '@shared/testing';
import { DataSource } from 'typeorm';
import { AiSettingsService } from '../src/app/ai-settings/ai-settings.service';
import { GithubAppSettingsService } from '../src/app/github-app-settings/github-app-settings.service';
import { NotificationChannelsService } from '../src/app/notification-channels/notification-channels.service';
import { RunningMonitor, TEST_ADMIN_ENV, adminHeaders, loginAdmin, startMonitor } from './harness';

const KEY_A = 'a1'.repeat(32);
const KEY_B = Buffer.alloc(32, 0xb2).toString('base64');

/** Every envelope stored in the database: sealed settings and channel secrets. */
async function storedEnvelopes(monitor: RunningMonitor): Promise<string[]> {
  const dataSource = monitor.app.get(DataSource);
  const settings: Array<{ value: string }> = await dataSource.query(`SELECT "value" FROM "settings"`);
  const channels: Array<{ secret: string }> = await dataSource.query(`SELECT "secret" FROM "notification_channels" WHERE "secret" IS NOT NULL`);
  const fromSettings = settings
    .map((row) => JSON.parse(row.value) as unknown)
    .filter((value): value is { envelope: string } => typeof value === 'object' && value !== null && 'envelope' in value)
    .map((value) => value.envelope);
  return [...fromSettings, ...channels.map((row) => row.secret)];
}

async function readSecrets(monitor: RunningMonitor): Promise<Record<string, unknown>> {
  const channels = await monitor.app.get(NotificationChannelsService).deliverableChannels();
  const github = await monitor.app.get(GithubAppSettingsService).current();
  const ai = await monitor.app.get(AiSettingsService).current();
  return { channel: channels.map((channel) => channel.secret), inbound: github.webhookSecrets, aiKey: ai.apiKey };
}

describe('master key rotation', () => {
  it('re-encrypts every stored secret under the new key so the old key can be dropped', async () => {
    let monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: KEY_A } });
    try {
      const admin = await loginAdmin(monitor);
      const headers = adminHeaders(admin);
      expect(
        (await requestJson(monitor.url, '/api/v1/notification-channels', {
          method: 'POST',
          headers,
          body: { kind: 'http_webhook', name: 'hook', url: 'https://hooks.example.com/a', secret: 'whsec_FRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRU=' },
        })).status,
      ).toBe(201);
      expect((await requestJson(monitor.url, '/api/v1/github/app', { method: 'PUT', headers, body: { webhook_secret: 'inbound-secret-rotation' } })).status).toBe(200);
      expect((await requestJson(monitor.url, '/api/v1/ai/config', { method: 'PUT', headers, body: { api_key: 'sk-rotation-key' } })).status).toBe(200);
      const expected = { channel: ['whsec_FRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRU='], inbound: ['inbound-secret-rotation'], aiKey: 'sk-rotation-key' };
      expect(await readSecrets(monitor)).toEqual(expected);
      const idA = keyIdOf(parseMasterKey(KEY_A));
      const idB = keyIdOf(parseMasterKey(KEY_B));
      expect((await storedEnvelopes(monitor)).map((envelope) => envelope.split('.')[1])).toEqual([idA, idA, idA]);

      await monitor.stop();
      monitor = await startMonitor({ reuseEnv: monitor.env, env: { MONITOR_ENCRYPTION_KEY: KEY_B, MONITOR_ENCRYPTION_KEY_PREVIOUS: KEY_A } });
      expect((await storedEnvelopes(monitor)).map((envelope) => envelope.split('.')[1])).toEqual([idB, idB, idB]);
      expect(await readSecrets(monitor)).toEqual(expected);

      await monitor.stop();
      const env: RawVariables = { ...monitor.env, MONITOR_ENCRYPTION_KEY: KEY_B };
      delete env['MONITOR_ENCRYPTION_KEY_PREVIOUS'];
      monitor = await startMonitor({ reuseEnv: env });
      expect(await readSecrets(monitor)).toEqual(expected);

      // A key that opens nothing stored stops startup instead of silently losing secrets.
      await monitor.stop();
      await expect(startMonitor({ reuseEnv: { ...env, MONITOR_ENCRYPTION_KEY: 'c3'.repeat(32) } })).rejects.toThrow(/neither MONITOR_ENCRYPTION_KEY nor MONITOR_ENCRYPTION_KEY_PREVIOUS/);
    } finally {
      await monitor.close();
    }
  });
});
