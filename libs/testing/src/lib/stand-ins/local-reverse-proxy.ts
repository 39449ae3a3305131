import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalReverseProxyOptions {
  /** Where to forward every request, e.g. `http://127.0.0.1:3000`. */
  upstream: string;
  /** Address to listen on (default 127.0.0.1; `0.0.0.0` to be reached from another interface). */
  host?: string;
  /** X-Forwarded-Proto to set (as nginx's `$scheme` would); left out when undefined. */
  forwardedProto?: string;
}

/**
 * A reverse proxy on the local machine that behaves like nginx with the usual
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`: it keeps whatever
 * X-Forwarded-For (and X-Forwarded-Host) the client sent and appends the address of the peer it
 * really talked to. The Host header is passed through. Used to prove that a service behind a
 * trusted proxy reads the address the proxy appended, not the one the client wrote.
 */
export class LocalReverseProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly upstream: URL;

  constructor(private readonly options: LocalReverseProxyOptions) {
    this.upstream = new URL(options.upstream);
  }

  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('LocalReverseProxy is not started');
    return address.port;
  }

  /** The proxy's URL on 127.0.0.1. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => this.forward(request, response));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private forward(request: IncomingMessage, response: ServerResponse): void {
    const peer = (request.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
    const headers = { ...request.headers };
    const sent = headers['x-forwarded-for'];
    const earlier = Array.isArray(sent) ? sent.join(', ') : sent;
    headers['x-forwarded-for'] = earlier ? `${earlier}, ${peer}` : peer;
    if (this.options.forwardedProto !== undefined) headers['x-forwarded-proto'] = this.options.forwardedProto;
    const upstream = httpRequest(
      { hostname: this.upstream.hostname, port: this.upstream.port || 80, path: request.url, method: request.method, headers },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  }
}
