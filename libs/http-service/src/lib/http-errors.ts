/**
 * The human message of a Nest HttpException response: its string, or its `message` (validation
 * errors come as a list and are joined), or the fallback.
 */
export function httpErrorMessage(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  if (response && typeof response === 'object' && 'message' in response) {
    const message = (response as { message: unknown }).message;
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string') return message;
  }
  return fallback;
}

/** The status Fastify put on its own errors (bad JSON, body too large, bad content type), if any. */
export function fastifyErrorStatus(exception: unknown): number | undefined {
  if (exception && typeof exception === 'object' && 'statusCode' in exception && 'code' in exception) {
    const status = Number((exception as { statusCode: unknown }).statusCode);
    if (status >= 400 && status < 600) return status;
  }
  return undefined;
}
