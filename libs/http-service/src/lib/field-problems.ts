import { HttpException, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { getMetadataStorage, ValidationError } from 'class-validator';

/**
 * What is wrong with one field of a request, for a form to show on that field. `field` and `rule`
 * are for programs (the web apps translate by `rule`, with `min`/`max`, and place the text by
 * `field`); `message` is a plain English sentence that names what to fix without the API's names.
 */
export interface FieldProblem {
  /** The field as the request names it; nested fields joined with dots (`chats.0.actions.1.keywords`). */
  field: string;
  rule: FieldRule;
  min?: number;
  max?: number;
  message: string;
}

/**
 * The rules a field can break. The first group comes from the DTO decorators; services add their
 * own, more precise ones (a settings field that must be a time zone, a pattern RE2 cannot run).
 */
export type FieldRule =
  | 'required'
  | 'too_long'
  | 'too_short'
  | 'too_many'
  | 'too_few'
  | 'too_small'
  | 'too_large'
  | 'range'
  | 'integer'
  | 'number'
  | 'type'
  | 'one_of'
  | 'url'
  | 'email'
  | 'format'
  | 'unknown_field'
  | 'invalid'
  | (string & NonNullable<unknown>);

/** Rules of class-validator's decorators, by their constraint name. */
const DECORATOR_RULES: Readonly<Record<string, FieldRule>> = {
  isNotEmpty: 'required',
  isDefined: 'required',
  arrayNotEmpty: 'required',
  maxLength: 'too_long',
  minLength: 'too_short',
  isLength: 'too_long',
  arrayMaxSize: 'too_many',
  arrayMinSize: 'too_few',
  min: 'too_small',
  max: 'too_large',
  isInt: 'integer',
  isNumber: 'number',
  isPositive: 'too_small',
  isString: 'type',
  isBoolean: 'type',
  isArray: 'type',
  isObject: 'type',
  isDate: 'type',
  isDateString: 'type',
  isISO8601: 'type',
  nestedValidation: 'type',
  isIn: 'one_of',
  isEnum: 'one_of',
  isUrl: 'url',
  isEmail: 'email',
  matches: 'format',
  isUUID: 'format',
  whitelistValidation: 'unknown_field',
};

/** A plain sentence for a rule, without the field's name (the form shows it under the field's label). */
export function fieldRuleSentence(rule: FieldRule, limits: { min?: number; max?: number } = {}): string {
  const { min, max } = limits;
  switch (rule) {
    case 'required':
      return 'Fill in this field.';
    case 'too_long':
      return max !== undefined ? `Use at most ${max} characters.` : 'This text is too long.';
    case 'too_short':
      return min !== undefined ? `Use at least ${min} characters.` : 'This text is too short.';
    case 'too_many':
      return max !== undefined ? `Give at most ${max} entries.` : 'There are too many entries.';
    case 'too_few':
      return min !== undefined ? `Give at least ${min} ${min === 1 ? 'entry' : 'entries'}.` : 'There are too few entries.';
    case 'too_small':
      return min !== undefined ? `Enter ${min} or more.` : 'This number is too small.';
    case 'too_large':
      return max !== undefined ? `Enter ${max} or less.` : 'This number is too large.';
    case 'range':
      return min !== undefined && max !== undefined ? `Enter a whole number from ${min} to ${max}.` : 'This number is out of range.';
    case 'integer':
      return 'Enter a whole number.';
    case 'number':
      return 'Enter a number.';
    case 'one_of':
      return 'Choose one of the offered values.';
    case 'url':
      return 'Enter a web address starting with http:// or https://.';
    case 'email':
      return 'Enter an email address.';
    case 'unknown_field':
      return 'This field is not part of this form; reload the page.';
    case 'type':
      return 'This value has the wrong kind; reload the page and enter it again.';
    default:
      return 'Check this value.';
  }
}

/** The first number in a class-validator default message ("... shorter than or equal to 64 characters"). */
function numberIn(message: string | undefined): number | undefined {
  const found = message ? /-?\d+(?:\.\d+)?/.exec(message) : null;
  return found ? Number(found[0]) : undefined;
}

/** The first argument of a decorator (MaxLength(64) -> 64) on `target`'s `property`, when it is a number. */
function constraintArgument(target: object | undefined, property: string, name: string): number | undefined {
  if (!target || typeof target !== 'object') return undefined;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false);
  const found = metadatas.find((metadata) => metadata.propertyName === property && (metadata.name === name || metadata.type === name));
  const first: unknown = found?.constraints?.[0];
  return typeof first === 'number' ? first : undefined;
}

/**
 * Every broken rule of a request, one entry per field and rule, from the errors of the
 * ValidationPipe (nested DTOs and arrays included). A decorator with its own message keeps it only
 * when it reads as a sentence (starts with a capital letter); class-validator's defaults, which name
 * the API field, are replaced by the rule's sentence.
 */
export function fieldProblemsOf(errors: readonly ValidationError[], parent = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const [name, text] of Object.entries(error.constraints ?? {})) {
      const described = describedByContext(error, name);
      if (described) {
        problems.push({ ...described, field });
        continue;
      }
      if (name === 'isLength') {
        problems.push(lengthProblem(field, error));
        continue;
      }
      const rule = DECORATOR_RULES[name] ?? name;
      const limit = constraintArgument(error.target, error.property, name) ?? numberIn(text);
      const limits: { min?: number; max?: number } = {};
      if (rule === 'too_long' || rule === 'too_many' || rule === 'too_large') limits.max = limit;
      if (rule === 'too_short' || rule === 'too_few' || rule === 'too_small') limits.min = name === 'isPositive' ? 1 : limit;
      const own = DECORATOR_RULES[name] === undefined && /^[A-Z]/.test(text) ? text : undefined;
      problems.push({ field, rule, ...definedOnly(limits), message: own ?? fieldRuleSentence(rule, limits) });
    }
    if (error.children?.length) problems.push(...fieldProblemsOf(error.children, field));
  }
  return problems;
}

/** Length(min, max): empty, too short or too long, by the value's length. */
function lengthProblem(field: string, error: ValidationError): FieldProblem {
  const metadatas = error.target ? getMetadataStorage().getTargetValidationMetadatas(error.target.constructor, '', true, false) : [];
  const found = metadatas.find((metadata) => metadata.propertyName === error.property && metadata.name === 'isLength');
  const [min, max] = (found?.constraints ?? []) as unknown[];
  const length = typeof error.value === 'string' ? error.value.length : undefined;
  if (length === 0) return { field, rule: 'required', message: fieldRuleSentence('required') };
  if (typeof min === 'number' && length !== undefined && length < min) return { field, rule: 'too_short', min, message: fieldRuleSentence('too_short', { min }) };
  if (typeof max === 'number') return { field, rule: 'too_long', max, message: fieldRuleSentence('too_long', { max }) };
  return { field, rule: 'invalid', message: fieldRuleSentence('invalid') };
}

/**
 * A decorator whose rule depends on the value (one decorator for "an integer from 1 to 170" and
 * "a time zone") describes the problem itself: registered here under the decorator's name.
 * (class-validator drops a synchronous validator's `context` from its errors, so that cannot carry it.)
 */
export type FieldProblemOfValue = (value: unknown) => Omit<FieldProblem, 'field'> | undefined;

const DESCRIBERS = new Map<string, FieldProblemOfValue>();

/** Makes fieldProblemsOf ask `describe` about every value the decorator named `name` refuses. */
export function describeFieldProblems(name: string, describe: FieldProblemOfValue): void {
  DESCRIBERS.set(name, describe);
}

function describedByContext(error: ValidationError, name: string): Omit<FieldProblem, 'field'> | undefined {
  return DESCRIBERS.get(name)?.(error.value);
}

function definedOnly(limits: { min?: number; max?: number }): { min?: number; max?: number } {
  const result: { min?: number; max?: number } = {};
  if (limits.min !== undefined && Number.isFinite(limits.min)) result.min = limits.min;
  if (limits.max !== undefined && Number.isFinite(limits.max)) result.max = limits.max;
  return result;
}

/** At most this many field problems in one answer (a hostile body can break thousands of rules). */
export const MAX_FIELD_PROBLEMS = 50;

/**
 * The global ValidationPipe with one addition: the 400 it throws also carries `fields`, the
 * broken rules per field (fieldProblemsOf, at most MAX_FIELD_PROBLEMS, within the same message
 * budget as the messages), so a web form shows each on its field. `message` stays what Nest gives.
 */
export class FieldValidationPipe extends ValidationPipe {
  constructor(options: ValidationPipeOptions = {}) {
    // The errors keep their object, so the limits of a decorator (MaxLength(64)) can be read; they are never sent.
    super({ ...options, validationError: { target: true, ...options.validationError } });
  }

  override createExceptionFactory(): (validationErrors?: ValidationError[]) => unknown {
    const messages = super.createExceptionFactory();
    return (validationErrors: ValidationError[] = []) => {
      const budget = { remaining: this.maxErrorMessagesLength, isExceeded: false };
      const fields = fieldProblemsOf(this.limitValidationErrors(validationErrors, budget)).slice(0, MAX_FIELD_PROBLEMS);
      const exception = messages(validationErrors);
      if (!(exception instanceof HttpException) || this.isDetailedOutputDisabled) return exception;
      const response = exception.getResponse();
      const body = typeof response === 'object' && response !== null ? { ...response, fields } : { message: response, fields };
      return new HttpException(body, exception.getStatus(), { cause: exception });
    };
  }
}

/** The `fields` a FieldValidationPipe put in an HttpException's response, if any. */
export function httpErrorFields(response: unknown): FieldProblem[] | undefined {
  if (!response || typeof response !== 'object' || !('fields' in response)) return undefined;
  const fields = (response as { fields: unknown }).fields;
  return Array.isArray(fields) && fields.length > 0 ? (fields as FieldProblem[]) : undefined;
}

/** The OpenAPI schema of a FieldProblem list, for the services' error body schemas. */
export const FIELD_PROBLEMS_SCHEMA = {
  type: 'array' as const,
  description: 'On validation_failed: each field that breaks a rule, for a form to show on that field',
  items: {
    type: 'object' as const,
    required: ['field', 'rule', 'message'],
    properties: {
      field: { type: 'string' as const, description: 'The field as the request names it; nested fields joined with dots', example: 'chats.0.actions.1.keywords' },
      rule: {
        type: 'string' as const,
        description: 'The rule it breaks, stable for translations: required, too_long, too_short, too_many, too_few, too_small, too_large, range, integer, number, type, one_of, url, email, format, unknown_field, invalid, or a service-specific one',
        example: 'too_long',
      },
      min: { type: 'number' as const, description: 'The lower limit of the rule, when it has one' },
      max: { type: 'number' as const, description: 'The upper limit of the rule, when it has one', example: 64 },
      message: { type: 'string' as const, description: 'A plain sentence naming what to fix, without API names', example: 'Use at most 64 characters.' },
    },
  },
};
