import { redactSecrets } from '@shared/config';

/** Writes `error_code=… message=…` to stderr with secrets removed, and returns the exit code 1. */
export function reportError(code: string, message: string, secrets: string[] = []): number {
  process.stderr.write(`error_code=${code} message=${JSON.stringify(redactSecrets(message, secrets))}\n`);
  return 1;
}
