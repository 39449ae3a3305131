import { LocalWebDavServer } from '@shared/testing';
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
    return new WebDavBackupStore({ url: server.url, username: server.username, password, folder: 'tg-signpulse-backups/' });
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
});
