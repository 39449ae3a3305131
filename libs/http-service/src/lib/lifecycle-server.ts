import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpServerLimits, TrustProxySetting } from '@shared/config';
import { applyConnectionLimits, CONNECTION_CHECK_INTERVAL_MS, ConnectionLimitStats } from './connection-limits';
import { requestIdFor } from './logging';
import { BASE_SECURITY_HEADERS } from './security-headers';

export type LifecyclePhase = 'starting' | 'serving' | 'draining' | 'closed';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface LifecycleServerOptions {
  /** Paths answered `{"status":"starting"|"shutting_down"}` with 503 while the app does not serve. */
  healthPaths: readonly string[];
  /** The service's error body for a 503 on any other path while the app does not serve. */
  unavailableBody: (phase: 'starting' | 'draining', requestId: string) => object;
  /** Where a failure of the listener itself (EMFILE on accept) is reported; stderr by default. */
  warn?: (message: string) => void;
}

/** Listener failures are reported at most this often: a flood at the descriptor limit fails thousands of accepts a second. */
const SERVER_ERROR_REPORT_INTERVAL_MS = 10_000;

export interface DrainOptions {
  /** How long new requests keep getting 503 before the app closes, so load balancers notice. */
  delayMs: number;
  /** Upper bound on waiting for requests already being answered (event streams are not waited for). */
  inFlightTimeoutMs: number;
}

const servers = new WeakMap<Server, LifecycleServer>();

/**
 * The HTTP listener of a service, up before the application: it answers 503 while the app starts
 * (health paths with `{"status":"starting"}`, every other path with the service's error shape),
 * hands requests to the app once it serves, and answers 503 again from the moment shutdown begins
 * while requests already in flight finish. A client never meets a refused connection while the
 * process lives. Give `serverFactory` to Fastify so the app uses this server.
 */
export class LifecycleServer {
  readonly server: Server;
  private phase: LifecyclePhase = 'starting';
  private handler?: RequestHandler;
  private readonly inFlight = new Set<ServerResponse>();
  private connectionStats?: () => ConnectionLimitStats;
  private lastErrorReport = 0;
  private unreportedErrors = 0;

  constructor(private readonly options: LifecycleServerOptions) {
    this.server = createServer({ connectionsCheckingInterval: CONNECTION_CHECK_INTERVAL_MS }, (request, response) => this.route(request, response));
    // Without a listener, an 'error' after listening (accept failing with EMFILE when the process is out
    // of file descriptors) would end the process. Node keeps accepting once descriptors are free again.
    this.server.on('error', (error) => this.reportServerError(error));
    servers.set(this.server, this);
  }

  /**
   * Bounds request times and connections (see applyConnectionLimits); the services call it with
   * their configuration before listening. Without it Node's defaults apply (no connection cap).
   */
  limit(limits: HttpServerLimits, trustProxy: TrustProxySetting): void {
    this.connectionStats ??= applyConnectionLimits(this.server, limits, trustProxy);
  }

  /** Open connections and those refused for their address (zeros before `limit`). */
  connections(): ConnectionLimitStats {
    return this.connectionStats?.() ?? { open: 0, refusedPerAddress: 0 };
  }

  /** The lifecycle server behind an HTTP server (the app's `getHttpServer()`), if it is one. */
  static of(server: unknown): LifecycleServer | undefined {
    return server instanceof Server ? servers.get(server) : undefined;
  }

  get state(): LifecyclePhase {
    return this.phase;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** `http://host:port` of the listener (IPv6 in brackets, a wildcard address as the loopback). */
  url(): string {
    const address = this.server.address() as AddressInfo | null;
    if (!address) throw new Error('the server is not listening');
    const host = address.address === '::' ? '::1' : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  /** For Fastify's `serverFactory` option: keeps the app's request handler for `serve()` and returns this server. */
  readonly serverFactory = (handler: RequestHandler): Server => {
    this.handler = handler;
    return this.server;
  };

  /** From now on requests go to the app. */
  serve(): void {
    if (!this.handler) throw new Error('the application did not attach to the lifecycle server (serverFactory)');
    if (this.phase === 'starting') this.phase = 'serving';
  }

  /**
   * Starts shutting down: new requests get 503 (and `Connection: close`) at once; resolves after
   * `delayMs` and once the requests in flight have been answered (at most `inFlightTimeoutMs`).
   */
  async drain(options: DrainOptions): Promise<void> {
    if (this.phase === 'closed') return;
    // Idle keep-alive connections stay open: a client may be sending on one right now. Their next
    // request gets the 503 with `Connection: close`.
    this.phase = 'draining';
    await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const deadline = Date.now() + options.inFlightTimeoutMs;
    while (this.pendingRequests() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  }

  /** Requests in flight that are not event streams (those end when the app closes them). */
  pendingRequests(): number {
    let count = 0;
    for (const response of this.inFlight) if (!String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')) count += 1;
    return count;
  }

  /** Stops listening and ends the connections left (idle ones at once, the rest after `graceMs`). */
  close(graceMs = 1000): Promise<void> {
    if (this.phase === 'closed' && !this.server.listening) return Promise.resolve();
    this.phase = 'closed';
    return new Promise((resolve) => {
      if (!this.server.listening) return resolve();
      const timer = setTimeout(() => this.server.closeAllConnections(), graceMs);
      timer.unref();
      this.server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  private reportServerError(error: Error): void {
    if (!this.server.listening) return; // a failed listen() is reported by its promise
    this.unreportedErrors += 1;
    const now = Date.now();
    if (now - this.lastErrorReport < SERVER_ERROR_REPORT_INTERVAL_MS) return;
    this.lastErrorReport = now;
    const message = `HTTP listener error (${this.unreportedErrors} since the last report): ${error.message}`;
    this.unreportedErrors = 0;
    try {
      (this.options.warn ?? ((line: string) => process.stderr.write(`${line}\n`)))(message);
    } catch {
      // Reporting must not become the failure that ends the process.
    }
  }

  private route(request: IncomingMessage, response: ServerResponse): void {
    // Every answer, the app's and the 503s below, carries these; a route may replace one (a page its CSP,
    // a static file its cache lifetime) with its own header.
    for (const [name, value] of BASE_SECURITY_HEADERS) response.setHeader(name, value);
    if (this.phase === 'serving' && this.handler) {
      this.inFlight.add(response);
      response.once('close', () => this.inFlight.delete(response));
      this.handler(request, response);
      return;
    }
    const phase = this.phase === 'starting' ? 'starting' : 'draining';
    const requestId = requestIdFor(request);
    const path = (request.url ?? '/').split('?')[0];
    const body = this.options.healthPaths.includes(path)
      ? { status: phase === 'starting' ? 'starting' : 'shutting_down' }
      : this.options.unavailableBody(phase, requestId);
    const text = JSON.stringify(body);
    // The request body is not read: the connection closes after this answer.
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'retry-after': '5',
      'cache-control': 'no-store',
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(text);
  }
}

/**
 * SIGTERM and SIGINT start `stop` (a graceful shutdown), then the process exits 0; a second
 * signal, or a failing stop, ends it at once with a non-zero code.
 */
export function onStopSignals(service: string, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${service} did not stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
