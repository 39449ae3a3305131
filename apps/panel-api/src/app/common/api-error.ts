import type { FieldProblem } from '@shared/http-service';
import type { ErrorCode } from './panel-error';

/** The one error body panel-api answers with. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Stable, for programs and translations (docs/panel-api-errors.md); `message` is for a person. */
  code: ErrorCode;
  /**
   * On `validation_failed`: each field of the request that breaks a rule, with the rule (`required`,
   * `too_long`, `range`...), its limits and a plain sentence, so a form shows it on that field.
   */
  fields?: FieldProblem[];
}
