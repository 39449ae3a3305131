import { LocalWebDavServer, LocalWebhookReceiver } from '@shared/testing';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { RemoteBackupError } from './remote-backup-store';
import { WebDavBackupStore } from './webdav-backup-store';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('WebDavBackupStore against a real WebDAV server', () => {
  let server: LocalWebDavServer;

  beforeAll(async () => {
    server = await new LocalWebDavServer({ basePath: '/remote.php/dav/files/me' }).start();
  });

  afterAll(async () => {
    await server.close();
  });

  function store(password = server.password): WebDavBackupStore {
    // The test server listens on loopback: allowed explicitly, as APP_OUTBOUND_ALLOW_PRIVATE=1 does.
    return new WebDavBackupStore({ url: server.url, username: server.username, password, folder: 'tg-signpulse-backups/' }, true);
  }

  it('uploads a stream of unknown length into a new folder, lists, downloads and removes it', async () => {
    const remote = store();
    expect(await remote.check()).toEqual({ folderExists: false });
    const payload = Buffer.alloc(3 * 1024 * 1024 + 17, 'a');
    // A generator stream has no length: the upload goes out chunked, as the archive does.
    const result = await remote.upload('auto-20240101-000000.tar.gz', Readable.from((function* () {
      for (let offset = 0; offset < payload.length; offset += 65536) yield payload.subarray(offset, offset + 65536);
    })()));
    expect(result.remote_path).toBe('/tg-signpulse-backups/auto-20240101-000000.tar.gz');
    expect(result.url).toBe(`${server.url}/tg-signpulse-backups/auto-20240101-000000.tar.gz`);
    expect(readFileSync(server.pathOnDisk('tg-signpulse-backups/auto-20240101-000000.tar.gz')).equals(payload)).toBe(true);
    await remote.upload('notes.txt.tar.gz', Readable.from([Buffer.from('x')]));
    expect(await remote.check()).toEqual({ folderExists: true });

    const files = await remote.list();
    expect(files.map((file) => file.name).sort()).toEqual(['auto-20240101-000000.tar.gz', 'notes.txt.tar.gz']);
    expect(files.find((file) => file.name.startsWith('auto-'))).toMatchObject({ size_bytes: payload.length, modified_at: expect.any(String) });

    const download = await remote.download('auto-20240101-000000.tar.gz');
    expect(download.size).toBe(payload.length);
    expect((await readAll(download.stream)).equals(payload)).toBe(true);

    await remote.remove('auto-20240101-000000.tar.gz');
    expect(existsSync(server.pathOnDisk('tg-signpulse-backups/auto-20240101-000000.tar.gz'))).toBe(false);
    await expect(remote.download('auto-20240101-000000.tar.gz')).rejects.toMatchObject({ status: 404 });
  });

  it('reports refused credentials without repeating them', async () => {
    const failure = await store('wrong-password').check().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RemoteBackupError);
    expect((failure as Error).message).toMatch(/refused the credentials \(HTTP 401\)/);
    expect((failure as Error).message).not.toContain('wrong-password');
  });

  it('follows no redirect to another port: the password never arrives there', async () => {
    const saved = new LocalWebhookReceiver();
    const elsewhere = new LocalWebhookReceiver();
    await saved.start();
    await elsewhere.start();
    try {
      saved.setDefaultReply({ status: 307, redirectTo: elsewhere.urlFor('/dav/') });
      const remote = new WebDavBackupStore({ url: saved.urlFor('/dav/'), username: 'me', password: 'dav-password', folder: '/' }, true);
      const error = await remote.check().catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(RemoteBackupError);
      expect((error as Error).message).toContain(`the server redirected to http://127.0.0.1:${new URL(elsewhere.url).port}, another server than the saved http://127.0.0.1:${new URL(saved.url).port}`);
      expect((error as Error).message).not.toContain('dav-password');
      expect(saved.requests.length).toBeGreaterThanOrEqual(1);
      expect(saved.requests[0]?.headers['authorization']).toBe(`Basic ${Buffer.from('me:dav-password').toString('base64')}`);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await saved.close();
      await elsewhere.close();
    }
  });

  it('refuses a server on a loopback address unless private addresses are allowed', async () => {
    const remote = new WebDavBackupStore({ url: server.url, username: server.username, password: server.password, folder: '/' });
    const error = await remote.check().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RemoteBackupError);
    expect((error as Error).message).toMatch(/127\.0\.0\.1 is a loopback address \(127\.0\.0\.1\); outbound requests to non-public addresses are off: set APP_OUTBOUND_ALLOW_PRIVATE=1/);
  });
});
