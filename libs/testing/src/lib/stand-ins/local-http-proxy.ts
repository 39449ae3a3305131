import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request that went through the proxy. */
export interface ProxiedRequest {
  /** `CONNECT` for a tunnel, otherwise the forwarded method. */
  method: string;
  /** `host:port` the client asked for. */
  target: string;
  /** The absolute URL of a forwarded (non-tunnel) request. */
  url?: string;
  /** Answer given to the client (e.g. 407, 200 for an established tunnel, the upstream status). */
  status: number;
  at: Date;
}

export interface LocalHttpProxyOptions {
  /** Require `Proxy-Authorization: Basic` with these credentials (407 otherwise). */
  credentials?: { username: string; password: string };
  /**
   * Status code and reason of the answer that establishes a tunnel (default `200 Connection
   * Established`); any 2xx means established (RFC 9110 §9.3.6), and real proxies differ here.
   */
  establishedStatus?: `2${number} ${string}`;
}

/**
 * A forward and CONNECT HTTP proxy on 127.0.0.1 that records which hosts went through it, to prove
 * that a client really uses the proxy it was given.
 */
export class LocalHttpProxy {
  readonly requests: ProxiedRequest[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: LocalHttpProxyOptions = {}) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('LocalHttpProxy is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  /** The proxy URL with the configured credentials in it. */
  get urlWithCredentials(): string {
    const url = new URL(this.url);
    if (this.options.credentials) {
      url.username = encodeURIComponent(this.options.credentials.username);
      url.password = encodeURIComponent(this.options.credentials.password);
    }
    return url.toString().replace(/\/$/, '');
  }

  /** Distinct `host:port` targets seen, in first-seen order. */
  get targets(): string[] {
    return [...new Set(this.requests.map((request) => request.target))];
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => this.forward(request, response));
    server.on('connect', (request: IncomingMessage, clientSocket: Socket, head: Buffer) => this.tunnel(request, clientSocket, head));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
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

  private authorized(request: IncomingMessage): boolean {
    const credentials = this.options.credentials;
    if (!credentials) return true;
    const header = request.headers['proxy-authorization'];
    const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    return header === expected;
  }

  private forward(request: IncomingMessage, response: ServerResponse): void {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('absolute URL required');
      return;
    }
    const record: ProxiedRequest = { method: request.method ?? 'GET', target: `${target.hostname}:${target.port || '80'}`, url: target.toString(), status: 0, at: new Date() };
    this.requests.push(record);
    if (!this.authorized(request)) {
      record.status = 407;
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: request.method, headers },
      (upstreamResponse) => {
        record.status = upstreamResponse.statusCode ?? 502;
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on('error', () => {
      record.status = 502;
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  }

  private tunnel(request: IncomingMessage, clientSocket: Socket, head: Buffer): void {
    const target = request.url ?? '';
    const record: ProxiedRequest = { method: 'CONNECT', target, status: 0, at: new Date() };
    this.requests.push(record);
    if (!this.authorized(request)) {
      record.status = 407;
      clientSocket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    const separator = target.lastIndexOf(':');
    const host = target.slice(0, separator).replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.slice(separator + 1));
    const upstream = connect(port, host, () => {
      const established = this.options.establishedStatus ?? '200 Connection Established';
      record.status = Number(established.slice(0, 3));
      clientSocket.write(`HTTP/1.1 ${established}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.once('close', () => this.sockets.delete(upstream));
    upstream.on('error', () => {
      record.status = 502;
      clientSocket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    clientSocket.on('error', () => upstream.destroy());
  }
}
