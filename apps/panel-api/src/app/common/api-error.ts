import type { ErrorCode } from './panel-error';

/** The one error body panel-api answers with. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Stable, for programs and translations (docs/panel-api-errors.md); `message` is for a person. */
  code: ErrorCode;
}
