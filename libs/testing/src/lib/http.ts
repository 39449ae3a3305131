/** A small JSON client over fetch for e2e tests: every call resolves with status, headers and body. */
export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  token?: string;
}

export async function requestJson<T = Record<string, unknown>>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  // A copy as Uint8Array: a BodyInit under both Node's and the DOM's fetch types (the browser tests
  // compile this file with lib "dom", where a Buffer is not one).
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.rawBody !== undefined) body = typeof options.rawBody === 'string' ? options.rawBody : new Uint8Array(options.rawBody);
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
