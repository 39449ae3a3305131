import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ERROR_STATUS, ErrorCode, PanelError } from '../common/panel-error';
import { ClusterService } from './cluster.service';

/**
 * Marks a request one replica forwarded to another: the owner answers it itself, never forwards
 * again. Its value is signed (ForwardingSignature); a header that does not verify is removed when
 * the request arrives, so a caller cannot set it to make a replica that does not own an account
 * answer for it.
 */
export const FORWARDED_BY_HEADER = 'x-panel-forwarded-by';
/** How far the forwarding replica's clock may be from the receiver's, and how long a signature may be replayed. */
const SIGNATURE_WINDOW_MS = 5 * 60_000;
/** On a forwarded answer: the replica that answered (the account's owner). */
export const ANSWERED_BY_HEADER = 'x-panel-replica';
const FORWARD_TIMEOUT_MS = 60_000;
/**
 * The trigger a replica names when it forwards a start of a task's run to the account's owner (a
 * batch run is recorded as `batch` there); honoured only on a verified forwarded request.
 */
export const RUN_TRIGGER_HEADER = 'x-panel-run-trigger';
const PASSED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'accept-language', 'x-request-id', RUN_TRIGGER_HEADER];
const PASSED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'www-authenticate'];

/**
 * The forwarding header's value: `<replica id>.<unix ms>.<HMAC-SHA256, base64url>` over the replica
 * id, the time, the method and the path with its query, with a key every replica derives from the
 * JWT secret they share.
 */
export class ForwardingSignature {
  constructor(private readonly key: Buffer) {}

  sign(replicaId: string, method: string, url: string, now = Date.now()): string {
    return `${replicaId}.${now}.${this.mac(replicaId, now, method, url)}`;
  }

  /** The replica id of a value signed for this method and URL within the window, else undefined. */
  verify(value: string, method: string, url: string, now = Date.now()): string | undefined {
    const macAt = value.lastIndexOf('.');
    const timeAt = value.lastIndexOf('.', macAt - 1);
    if (macAt <= 0 || timeAt <= 0 || value.length > 512) return undefined;
    const replicaId = value.slice(0, timeAt);
    const time = Number(value.slice(timeAt + 1, macAt));
    if (!Number.isSafeInteger(time) || Math.abs(now - time) > SIGNATURE_WINDOW_MS) return undefined;
    const given = Buffer.from(value.slice(macAt + 1), 'base64url');
    const expected = Buffer.from(this.mac(replicaId, time, method, url), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? replicaId : undefined;
  }

  private mac(replicaId: string, time: number, method: string, url: string): string {
    return createHmac('sha256', this.key).update(`${replicaId}\n${time}\n${method.toUpperCase()}\n${url}`).digest('base64url');
  }
}

/** The signature each cluster's forwarding uses, set by installOwnerForwarding. */
const signatures = new WeakMap<ClusterService, ForwardingSignature>();

/** A replica another one forwards to: its id and address in `replicas`. */
export interface ReplicaAddress {
  id: string;
  address: string;
}

/** What a replica answered to a forwarded request. */
export interface ForwardedAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
  replicaId: string;
}

/** What the forwarding needs to know of the app beyond the cluster. */
export interface OwnerForwardingLookups {
  /** The accounts a "run now", run status or run cancel of the task concerns (undefined for an unknown task: answered here). */
  taskAccounts(taskName: string, onlyAccount: string | undefined): Promise<string[] | undefined>;
  /** Whether this replica holds the QR login (its steps are answered here). */
  knowsQrLogin(loginId: string): boolean;
}

/** What the forwarding needs of the access tokens: the signing key of forwarded requests, and the token check. */
export interface ForwardingAuth {
  replicaForwardingKey(): Buffer;
  verify(token: string): Promise<unknown>;
}

/** How a route names the account(s) whose Telegram session it uses. */
type AccountsOfRequest = (request: FastifyRequest, lookups: OwnerForwardingLookups) => Promise<string[] | undefined> | string[] | undefined;

const param = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};
const bodyField = (request: FastifyRequest, name: string): string | undefined => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
};
const one = (name: string | undefined): string[] | undefined => (name === undefined ? undefined : [name]);

/**
 * Routes that use one account's Telegram session, each with how it names the account: answered by
 * the account's owner. The route is Fastify's pattern (`request.routeOptions.url`).
 */
const OWNER_ROUTES: Array<{ method?: string; url: RegExp; accounts: AccountsOfRequest }> = [
  { url: /^\/api\/accounts\/:account_name\/(devices|official-messages|chats)(\/|$)/, accounts: (request) => one(param(request, 'account_name')) },
  // The safety budget lives in the owner's governor: its state and a resume are the owner's.
  { url: /^\/api\/accounts\/:account_name\/safety(\/resume)?$/, accounts: (request) => one(param(request, 'account_name')) },
  { method: 'POST', url: /^\/api\/accounts\/(login\/start|login\/verify|qr-login\/start)$/, accounts: (request) => one(bodyField(request, 'account_name')) },
  { method: 'DELETE', url: /^\/api\/accounts\/login\/:account_name$/, accounts: (request) => one(param(request, 'account_name')) },
  {
    url: /^\/api\/sign-tasks\/:name\/run(\/status|\/cancel)?$/,
    accounts: (request, lookups) => {
      const task = param(request, 'name');
      const onlyAccount = request.routeOptions.url?.endsWith('/run') ? bodyField(request, 'account_name') : undefined;
      return task === undefined ? undefined : lookups.taskAccounts(task, onlyAccount);
    },
  },
];
/**
 * Routes that name something one replica holds in its memory: a QR login (the replica that started
 * it holds its Telegram connection). The replica that knows the id answers them. (A status check
 * job is a database row: any replica answers it.)
 */
const HELD_ELSEWHERE_ROUTES: Array<{ url: RegExp; param: string; knows: (lookups: OwnerForwardingLookups, id: string) => boolean; what: string }> = [
  { url: /^\/api\/accounts\/qr-login\/:login_id(\/password)?$/, param: 'login_id', knows: (lookups, id) => lookups.knowsQrLogin(id), what: 'QR login' },
];

/** A name no account can have (a NUL byte PostgreSQL refuses, say) has no owner: the route answers it here (400). */
function possibleAccountName(account: string): boolean {
  return account.length > 0 && account.length <= 64 && [...account].every((character) => character.charCodeAt(0) >= 0x20);
}

/**
 * Sends a request to another replica as the caller sent it (method, path, body, access token) and
 * returns its answer unread (a large download streams through); 503 with a sentence to try again
 * when it does not answer within 60 s.
 */
export async function openOnReplica(
  cluster: ClusterService,
  target: ReplicaAddress,
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body?: unknown },
  what: string,
  options: { boundBody: boolean } = { boundBody: true },
): Promise<Response> {
  const signature = signatures.get(cluster);
  if (!signature) throw new Error('installOwnerForwarding has not run: forwarded requests cannot be signed');
  const url = new URL(request.url, target.address);
  const headers: Record<string, string> = { [FORWARDED_BY_HEADER]: signature.sign(cluster.replicaId, request.method, `${url.pathname}${url.search}`) };
  for (const name of PASSED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const hasBody = request.body !== undefined && request.body !== null && !['GET', 'HEAD', 'DELETE'].includes(request.method);
  if (hasBody) headers['content-type'] = 'application/json';
  // The answer must begin within the bound; a streamed download (boundBody false) may then take its time.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), FORWARD_TIMEOUT_MS);
  timer.unref();
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : undefined,
      redirect: 'manual',
      signal: controller.signal,
    });
    if (!options.boundBody) clearTimeout(timer);
    return response;
  } catch {
    clearTimeout(timer);
    throw new PanelError('service_unavailable', `The instance of the panel that holds ${what} did not answer. Try again in a few seconds.`, cluster.leaseSeconds);
  }
}

/**
 * Sends a request to another replica as the caller sent it (method, path, body, access token) and
 * returns its answer; 503 with a sentence to try again when it does not answer within 60 s.
 */
export async function forwardToReplica(
  cluster: ClusterService,
  target: ReplicaAddress,
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body?: unknown },
  what: string,
): Promise<ForwardedAnswer> {
  const response = await openOnReplica(cluster, target, request, `the Telegram connection of ${what}`);
  try {
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()), replicaId: target.id };
  } catch {
    throw new PanelError('service_unavailable', `The instance of the panel that holds the Telegram connection of ${what} did not answer. Try again in a few seconds.`, cluster.leaseSeconds);
  }
}

/** The JSON body of a replica's answer, or undefined when it is not JSON. */
export function answerJson<T>(answer: ForwardedAnswer): T | undefined {
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/** A replica's error answer as the same PanelError here (its code and message), for answers merged from several replicas. */
export function errorOfAnswer(answer: ForwardedAnswer, what: string): PanelError {
  const body = answerJson<{ code?: unknown; message?: unknown }>(answer);
  const code = typeof body?.code === 'string' && body.code in ERROR_STATUS ? (body.code as ErrorCode) : 'service_unavailable';
  const message = typeof body?.message === 'string' ? body.message : `The instance of the panel that holds ${what} answered ${answer.status}. Try again in a few seconds.`;
  const retryAfter = Number(answer.headers.get('retry-after'));
  return new PanelError(code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
}

function sendForwarded(reply: FastifyReply, answer: ForwardedAnswer): FastifyReply {
  void reply.status(answer.status).header(ANSWERED_BY_HEADER, answer.replicaId);
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) void reply.header(name, value);
  }
  return reply.send(answer.body);
}

/**
 * Replicas on PostgreSQL (issue 31 item 4): a request that uses the Telegram session of an account
 * another replica owns (device list and termination, official messages, the phone and QR login
 * steps, "run now" and the run's status and cancel) is forwarded to that replica (its address in
 * `replicas`), which answers as on one instance; this replica never opens the account's session.
 * An account between owners is answered here. The owner checks the access token again.
 *
 * A run of a task whose accounts several replicas own is split by the runs controller instead, and a
 * session check by the status service, each account at its owner. A QR login step goes to the
 * replica that started the login: the one that knows its id.
 */
export function installOwnerForwarding(fastify: FastifyInstance, cluster: ClusterService, lookups: OwnerForwardingLookups, auth: ForwardingAuth): void {
  const signature = new ForwardingSignature(auth.replicaForwardingKey());
  signatures.set(cluster, signature);
  // Only another replica can say a request was forwarded (see FORWARDED_BY_HEADER).
  fastify.addHook('onRequest', async (request) => {
    const value = request.headers[FORWARDED_BY_HEADER];
    if (value !== undefined && (typeof value !== 'string' || !signature.verify(value, request.method, request.url))) delete request.headers[FORWARDED_BY_HEADER];
    // A run's trigger is named by replicas only: a caller's own is dropped before anything passes it on.
    if (!request.headers[FORWARDED_BY_HEADER]) delete request.headers[RUN_TRIGGER_HEADER];
  });
  fastify.addHook('preHandler', async (request, reply) => {
    if (!cluster.active || request.headers[FORWARDED_BY_HEADER]) return;
    const url = request.routeOptions.url ?? '';
    const held = HELD_ELSEWHERE_ROUTES.find((candidate) => candidate.url.test(url));
    if (held) return (await authorized(request)) ? forwardToHolder(request, reply, held) : undefined;
    const route = OWNER_ROUTES.find((candidate) => candidate.url.test(url) && (!candidate.method || candidate.method === request.method));
    if (!route) return;
    // Nothing is looked up or sent on for a caller without a valid token: the guard answers 401 here.
    if (!(await authorized(request))) return;
    const accounts = await route.accounts(request, lookups);
    if (!accounts?.length || !accounts.every(possibleAccountName) || accounts.every((account) => cluster.owns(account))) return;
    const owners = await Promise.all(accounts.map((account) => cluster.ownerOf(account)));
    const owner = owners[0];
    // Forwarded whole only when one other replica owns every account; otherwise answered (or split) here.
    if (!owner || owner.id === cluster.replicaId || owners.some((other) => other?.id !== owner.id)) return;
    return sendForwarded(reply, await forwardToReplica(cluster, owner, request, accounts.join(', ')));
  });

  async function authorized(request: FastifyRequest): Promise<boolean> {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return false;
    try {
      await auth.verify(token);
      return true;
    } catch {
      return false;
    }
  }

  /** Asks the other live replicas in turn; the one that knows the id answers (the others say 404). */
  async function forwardToHolder(request: FastifyRequest, reply: FastifyReply, route: (typeof HELD_ELSEWHERE_ROUTES)[number]): Promise<FastifyReply | undefined> {
    const id = param(request, route.param);
    if (!id || route.knows(lookups, id)) return undefined;
    let unreachable: unknown;
    for (const replica of await cluster.otherReplicas()) {
      try {
        const answer = await forwardToReplica(cluster, replica, request, `${route.what} ${id}`);
        if (answer.status !== 404) return sendForwarded(reply, answer);
      } catch (error) {
        unreachable = error;
      }
    }
    // Nobody knows it: this replica's own 404, or 503 when a replica that may hold it did not answer.
    if (unreachable) throw unreachable;
    return undefined;
  }
}
