import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A PEM private key and certificate (see `createSelfSignedCertificate`). */
export interface TlsIdentity {
  key: string;
  cert: string;
}

/** One request as a stand-in received it. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The body as UTF-8 text. */
  bodyText: string;
  receivedAt: Date;
}

export type RequestHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export async function readRequest(request: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks);
  const url = request.url ?? '/';
  const parsed = new URL(url, 'http://stand-in.local');
  return {
    method: request.method ?? 'GET',
    url,
    path: parsed.pathname,
    query: parsed.searchParams,
    headers: request.headers,
    rawBody,
    bodyText: rawBody.toString('utf8'),
    receivedAt: new Date(),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A real HTTP server on 127.0.0.1 and a random port that records every request before handing it
 * to `handle`. Subclasses implement one outside service's protocol.
 */
export abstract class LocalHttpServer {
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[] = [];
  private server?: Server;
  private origin?: string;

  /** With `tls`, the server speaks HTTPS with that key and certificate. */
  constructor(private readonly tls?: TlsIdentity) {}

  protected abstract handle(request: RecordedRequest, response: ServerResponse): void | Promise<void>;

  /** `http(s)://127.0.0.1:<port>` (no trailing slash); only after `start()`. */
  get url(): string {
    if (!this.origin) throw new Error(`${this.constructor.name} is not started`);
    return this.origin;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  async start(): Promise<this> {
    if (this.server) return this;
    const listener = (request: IncomingMessage, response: ServerResponse): void => {
      void this.dispatch(request, response);
    };
    const server: Server = this.tls ? createHttpsServer({ key: this.tls.key, cert: this.tls.cert }, listener) : createServer(listener);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.origin = `${this.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Forgets the recorded requests (state the subclass keeps stays). */
  clearRequests(): void {
    this.requests.length = 0;
  }

  private async dispatch(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const request = await readRequest(incoming);
      this.requests.push(request);
      await this.handle(request, response);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, { message: `stand-in failed: ${error instanceof Error ? error.message : String(error)}` });
      else response.destroy();
    }
  }
}

/** A wait that does not keep the process alive (a stand-in closed mid-delay must not hang Jest). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
