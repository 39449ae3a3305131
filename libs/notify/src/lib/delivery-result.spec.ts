import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBodyPrefix, readSnippet, RESPONSE_JSON_LIMIT_BYTES } from './delivery-result';
import { BarkSender } from './push-channels';
import { TelegramBotSender } from './telegram-bot-sender';

/**
 * Answers 200 and streams without end (until the client goes away), or a fixed body. The endless
 * body proves a reader stops at its bound: reading it whole would only end at the sender's timeout.
 */
describe('bounded response reading', () => {
  let server: Server;
  let origin: string;
  const open: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      if (request.url?.startsWith('/exact')) {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('é'.repeat(512));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      open.push(response);
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      response.write('{"ok":true,"padding":"');
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const response of open) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('readSnippet keeps 1 KiB of an endless body and returns at once', async () => {
    const started = Date.now();
    const snippet = await readSnippet(await fetch(`${origin}/endless`));
    expect(snippet).toHaveLength(1024);
    expect(snippet.startsWith('{"ok":true')).toBe(true);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('readBodyPrefix says whether more followed, and an answer of exactly the limit is complete', async () => {
    const endless = await readBodyPrefix(await fetch(`${origin}/endless`), RESPONSE_JSON_LIMIT_BYTES);
    expect(endless.truncated).toBe(true);
    expect(Buffer.byteLength(endless.text)).toBe(RESPONSE_JSON_LIMIT_BYTES);
    const exact = await readBodyPrefix(await fetch(`${origin}/exact`), 1024);
    expect(exact).toEqual({ text: 'é'.repeat(512), truncated: false });
    const cut = await readBodyPrefix(await fetch(`${origin}/exact`), 1023);
    expect(cut.truncated).toBe(true);
    expect(cut.text.startsWith('é'.repeat(511))).toBe(true);
  });

  it('the Telegram sender gives up on an endless Bot API answer without waiting for its timeout', async () => {
    const sender = new TelegramBotSender({ token: '123:abc', baseUrl: origin, timeoutMs: 8000, maxInlineRetryAfterSeconds: 0 });
    const started = Date.now();
    const result = await sender.sendMessage({ chatId: 1, text: 'hello' });
    expect(result.ok).toBe(false);
    // Well before the 8 s timeout, with room for a starved machine.
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('a push sender reads at most 64 KiB of an endless answer', async () => {
    const started = Date.now();
    const result = await new BarkSender(`${origin}/bark/device`, { timeoutMs: 8000 }).send({ title: 't', body: 'b' });
    expect(result.responseSnippet).toHaveLength(1024);
    // Well before the 8 s timeout, with room for a starved machine.
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
