/** One broken rule: the variable it concerns and the rule, never the value. */
export interface ConfigIssue {
  variable: string;
  rule: string;
}

/** Raised for configuration that breaks a rule; the message names variables and rules only. */
export class ConfigValidationError extends Error {
  readonly code = 'validation_failed';

  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map((issue) => `${issue.variable}: ${issue.rule}`).join('; '));
    this.name = 'ConfigValidationError';
  }
}
