/** Classifies an error raised while connecting or migrating, for the `error_code=…` line. */
export function startupErrorCode(error: unknown): 'database_unavailable' | 'migration_failed' | 'startup_failed' {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '42501' || /permission denied for (schema|database)/i.test(message)) return 'migration_failed';
  if (
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'EACCES'].includes(
      String(code),
    ) ||
    /^(28|3D|08|57P)/.test(String(code)) ||
    /connect|connection|timeout|password authentication|does not exist|Invalid URL|unable to open database/i.test(message)
  ) {
    return 'database_unavailable';
  }
  return 'startup_failed';
}

/** A human message for the startup failure, without connection strings or secrets. */
export function startupErrorMessage(kind: ReturnType<typeof startupErrorCode>, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  if (kind === 'migration_failed') {
    return `migrations failed: the database user cannot create tables (grant CREATE on schema public): ${detail}`;
  }
  if (kind === 'database_unavailable') return `cannot reach the database: ${detail}`;
  return detail;
}
