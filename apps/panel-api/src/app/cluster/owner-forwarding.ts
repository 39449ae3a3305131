import type { FastifyInstance } from 'fastify';
import { PanelError } from '../common/panel-error';
import { ClusterService } from './cluster.service';

/** Marks a request one replica forwarded to another: the owner answers it itself, never forwards again. */
export const FORWARDED_BY_HEADER = 'x-panel-forwarded-by';
/** On a forwarded answer: the replica that answered (the account's owner). */
export const ANSWERED_BY_HEADER = 'x-panel-replica';
const FORWARD_TIMEOUT_MS = 60_000;
/** Routes that use one account's Telegram session, named by `:account_name`: answered by the account's owner. */
const OWNER_ROUTES = /^\/api\/accounts\/:account_name\/(devices|official-messages)(\/|$)/;
const PASSED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'accept-language', 'x-request-id'];
const PASSED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'www-authenticate'];

/**
 * Replicas on PostgreSQL (issue 31 item 4): a device list, a device termination or the official
 * messages of an account that another replica owns are forwarded to that replica (its address in
 * `replicas`), which answers as on one instance; this replica never opens the account's session.
 * An account between owners is answered here. The owner checks the access token again.
 */
export function installOwnerForwarding(fastify: FastifyInstance, cluster: ClusterService): void {
  fastify.addHook('preHandler', async (request, reply) => {
    if (!cluster.active || !OWNER_ROUTES.test(request.routeOptions.url ?? '')) return;
    if (request.headers[FORWARDED_BY_HEADER]) return;
    const account = (request.params as Record<string, string | undefined>)['account_name'];
    if (!account || cluster.owns(account)) return;
    // A name no account can have (a NUL byte PostgreSQL refuses, say) has no owner: the route answers it here (400).
    const possible = account.length <= 64 && [...account].every((character) => character.charCodeAt(0) >= 0x20);
    const owner = possible ? await cluster.ownerOf(account) : undefined;
    if (!owner || owner.id === cluster.replicaId) return;
    const headers: Record<string, string> = { [FORWARDED_BY_HEADER]: cluster.replicaId };
    for (const name of PASSED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const hasBody = request.body !== undefined && request.body !== null && !['GET', 'HEAD', 'DELETE'].includes(request.method);
    let response: Response;
    try {
      response = await fetch(new URL(request.url, owner.address), {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(request.body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
    } catch {
      throw new PanelError(
        'service_unavailable',
        `The instance of the panel that holds the Telegram connection of ${account} did not answer. Try again in a few seconds.`,
        cluster.leaseSeconds,
      );
    }
    const body = Buffer.from(await response.arrayBuffer());
    void reply.status(response.status).header(ANSWERED_BY_HEADER, owner.id);
    for (const name of PASSED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) void reply.header(name, value);
    }
    return reply.send(body);
  });
}
