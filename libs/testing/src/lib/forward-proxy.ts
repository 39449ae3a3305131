import { createServer, request as httpRequest, IncomingMessage, ServerResponse } from 'node:http';
import { connect, Socket } from 'node:net';

export interface ProxiedRequest {
  /** `CONNECT` for tunnels, otherwise the forwarded method. */
  method: string;
  /** `host:port` for CONNECT, the absolute URL for forwarded requests. */
  target: string;
}

export interface ForwardProxy {
  url: string;
  /** Every request the proxy handled, in order. */
  requests: ProxiedRequest[];
  close: () => Promise<void>;
}

/**
 * A real HTTP proxy on 127.0.0.1: tunnels CONNECT requests and forwards absolute-form requests,
 * recording each, so a test can prove outbound traffic goes through HTTPS_PROXY (or bypasses it).
 */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '';
    requests.push({ method: req.method ?? 'GET', target });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end('absolute-form URL required');
      return;
    }
    const upstream = httpRequest(
      { host: url.hostname, port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers: req.headers },
      (upstreamResponse) => {
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    requests.push({ method: 'CONNECT', target });
    const separator = target.lastIndexOf(':');
    const host = target.slice(0, separator).replace(/^\[|\]$/g, '');
    const port = Number(target.slice(separator + 1));
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
