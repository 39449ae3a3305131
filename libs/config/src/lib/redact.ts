const MASK = '[REDACTED]';

/**
 * Removes every occurrence of the given secrets from a message, and the password part of any URL.
 * Used on every message that may carry configuration, so a secret never reaches a log or a terminal.
 */
export function redactSecrets(message: string, secrets: ReadonlyArray<string | undefined | null> = []): string {
  let text = message;
  const known = secrets
    .filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4)
    .sort((a, b) => b.length - a.length);
  for (const secret of known) {
    text = text.split(secret).join(MASK);
  }
  // user:password@host in connection strings and URLs
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*):[^@/\s]*@/gi, `$1:${MASK}@`);
}
