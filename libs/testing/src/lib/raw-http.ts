import { IncomingHttpHeaders, request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request with the path sent exactly as given (fetch would resolve `/docs/../x` and
 * re-encode escapes first): how a probing client, not a browser, talks to the service.
 */
export function rawRequest(baseUrl: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${path} within 30 s`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}
