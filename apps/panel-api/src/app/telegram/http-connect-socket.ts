import { connect as connectTcp, Socket } from 'node:net';
import { extensions } from 'telegram';

/** Opens a TCP tunnel through an HTTP proxy with CONNECT; resolves with the socket once the proxy answered 2xx. */
export function openHttpTunnel(
  proxy: { host: string; port: number; username?: string; password?: string },
  target: { host: string; port: number },
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(proxy.port, proxy.host);
    let answer = Buffer.alloc(0);
    const timer = setTimeout(() => fail(new Error(`HTTP proxy ${proxy.host}:${proxy.port} did not answer (ETIMEDOUT)`)), timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      const authority = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
      const headers = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
      if (proxy.username !== undefined) {
        headers.push(`Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}`);
      }
      socket.write(`${headers.join('\r\n')}\r\n\r\n`);
    });
    const onData = (chunk: Buffer): void => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (answer.length > 16_384) fail(new Error('HTTP proxy sent an oversized answer'));
        return;
      }
      socket.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer.subarray(0, end).toString('latin1'));
      if (!status || !status[1].startsWith('2')) {
        fail(new Error(`HTTP proxy refused the tunnel (${status ? status[1] : 'no status line'})`));
        return;
      }
      clearTimeout(timer);
      socket.off('error', fail);
      const rest = answer.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/**
 * GramJS speaks MTProto over a socket class it instantiates itself and has no HTTP proxy support;
 * this socket class tunnels through an HTTP CONNECT proxy and otherwise behaves like GramJS's own.
 */
export function httpProxySocketClass(
  proxy: { host: string; port: number; username?: string; password?: string },
  timeoutMs: number,
): typeof extensions.PromisedNetSockets {
  class HttpProxySocket extends extensions.PromisedNetSockets {
    private tunnel?: Socket;
    private readable: Buffer[] = [];
    private waiting?: () => void;
    private ended = false;

    override async connect(port: number, ip: string): Promise<unknown> {
      this.tunnel = await openHttpTunnel(proxy, { host: ip, port }, timeoutMs);
      this.ended = false;
      this.tunnel.on('data', (chunk: Buffer) => {
        this.readable.push(chunk);
        this.waiting?.();
      });
      this.tunnel.on('close', () => {
        this.ended = true;
        this.waiting?.();
      });
      this.tunnel.on('error', () => undefined);
      return this;
    }

    override async read(length: number): Promise<Buffer> {
      while (this.readable.length === 0) {
        if (this.ended) throw new Error('NetSocket was closed');
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
      const all = Buffer.concat(this.readable);
      const taken = all.subarray(0, length);
      const remaining = all.subarray(length);
      this.readable = remaining.length > 0 ? [remaining] : [];
      return taken;
    }

    override async readExactly(length: number): Promise<Buffer> {
      let data = Buffer.alloc(0);
      while (data.length < length) data = Buffer.concat([data, await this.read(length - data.length)]);
      return data;
    }

    override async readAll(): Promise<Buffer> {
      return this.read(Number.MAX_SAFE_INTEGER);
    }

    override write(data: Buffer): void {
      if (!this.tunnel || this.ended) throw new Error('NetSocket was closed');
      this.tunnel.write(data);
    }

    override async close(): Promise<void> {
      this.ended = true;
      this.tunnel?.destroy();
      this.waiting?.();
    }

    override toString(): string {
      return 'HttpProxySocket';
    }
  }
  return HttpProxySocket;
}
