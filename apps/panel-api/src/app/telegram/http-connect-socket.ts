import type { Socket } from 'node:net';
import { connectAuthority, httpProxyUrl, openProxyTunnel } from '@shared/outbound-http';
import { extensions } from 'telegram';

/**
 * GramJS speaks MTProto over a socket class it instantiates itself and has no HTTP proxy support;
 * this socket class tunnels through an HTTP CONNECT proxy (the CONNECT shared with every outbound
 * proxy of both services) and otherwise behaves like GramJS's own.
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
      this.tunnel = await openProxyTunnel(httpProxyUrl(proxy), connectAuthority(ip, port), timeoutMs);
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
