import { redactSecrets } from '@shared/config';

/** Where a CLI command writes its error line; defaults to the process's stderr. */
export type ErrorWriter = (line: string) => void;

const processStderr: ErrorWriter = (line) => process.stderr.write(`${line}\n`);

/** Writes `error_code=… message=…` with secrets removed, and returns the exit code 1. */
export function reportError(code: string, message: string, secrets: string[] = [], write: ErrorWriter = processStderr): number {
  write(`error_code=${code} message=${JSON.stringify(redactSecrets(message, secrets))}`);
  return 1;
}
