import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp, { type Options as HttpLoggerOptions } from 'pino-http';
import Fastify from 'fastify';
import pino from 'pino';
import { logLeanRequests, loggerParams, noteAnsweredError, requestIdFor, requestLogLevel } from './logging';

interface LogLine {
  level: number;
  msg: string;
  err?: unknown;
  req?: { id: string };
}

function capture(level: string): { options: HttpLoggerOptions; lines: LogLine[]; stream: Writable } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const options = loggerParams({ level, format: 'json' }).pinoHttp as HttpLoggerOptions;
  return { options, lines, stream };
}

async function requestOnce(handler: Parameters<typeof createServer>[1]): Promise<void> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest({ port, method: 'POST', path: '/webhooks/github?token=secret' }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
  server.close();
  await new Promise((resolve) => setImmediate(resolve));
}

describe('request logging', () => {
  it('logs an expected 503 as one warn line with the error code and message, no stack trace', async () => {
    const { options, lines, stream } = capture('info');
    const middleware = pinoHttp(options, stream);
    await requestOnce((req, res) => {
      middleware(req, res);
      noteAnsweredError(res, { code: 'webhook_not_configured', message: 'no inbound webhook secret is configured' });
      res.statusCode = 503;
      res.end('{}');
    });
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe(40);
    expect(lines[0].msg).toBe('POST /webhooks/github 503 webhook_not_configured: no inbound webhook secret is configured');
    expect(lines[0].err).toBeUndefined();
    expect(typeof lines[0].req?.id).toBe('string');
  });

  it('logs a 4xx at info and only a 500 at error', () => {
    expect(requestLogLevel(200)).toBe('info');
    expect(requestLogLevel(401)).toBe('info');
    expect(requestLogLevel(429)).toBe('info');
    expect(requestLogLevel(502)).toBe('warn');
    expect(requestLogLevel(503)).toBe('warn');
    expect(requestLogLevel(500)).toBe('error');
  });

  it("keeps Nest's start-up listing for LOG_LEVEL=debug", () => {
    for (const level of ['info', 'debug']) {
      const { options, lines, stream } = capture(level);
      const { logger } = pinoHttp(options, stream);
      logger.info({ context: 'RouterExplorer' }, 'Mapped {/api/v1/events, GET} route');
      logger.info({ context: 'AdminAccountService' }, 'created the admin account');
      const messages = lines.map((line) => `${line.level} ${line.msg}`);
      expect(messages).toEqual(
        level === 'debug'
          ? ['20 Mapped {/api/v1/events, GET} route', '30 created the admin account']
          : ['30 created the admin account'],
      );
    }
  });

  describe('lean routes', () => {
    async function leanServer(level: string) {
      const lines: Array<LogLine & { res?: { statusCode: number }; responseTime?: number; req?: { id: string; url?: string } }> = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text));
          done();
        },
      });
      const app = Fastify({ genReqId: (req) => requestIdFor(req) });
      const logger = pino({ level, serializers: { res: pino.stdSerializers.res } }, stream);
      logLeanRequests(app, () => logger, ['/webhooks/github']);
      app.post('/webhooks/github', async (_request, reply) => {
        noteAnsweredError(reply.raw, { code: 'invalid_signature', message: 'the signature does not match' });
        return reply.status(401).send({});
      });
      app.post('/other', async () => ({}));
      await app.ready();
      return { app, lines };
    }

    it('writes the request line of a lean route as pino-http would, without the query string', async () => {
      const { app, lines } = await leanServer('info');
      await app.inject({ method: 'POST', url: '/webhooks/github?token=secret', headers: { 'x-request-id': 'delivery-1' } });
      await app.inject({ method: 'POST', url: '/other' });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        msg: 'POST /webhooks/github 401 invalid_signature: the signature does not match',
        req: { id: 'delivery-1', method: 'POST', url: '/webhooks/github' },
        res: { statusCode: 401 },
      });
      expect(typeof lines[0].responseTime).toBe('number');
      await app.close();
    });

    it('writes nothing when the line is below the level', async () => {
      const { app, lines } = await leanServer('warn');
      await app.inject({ method: 'POST', url: '/webhooks/github' });
      expect(lines).toHaveLength(0);
      await app.close();
    });
  });
});
