import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiPayloadTooLargeResponse } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/**
 * How much of a JSON request body a route accepts. Every bound is checked before the body is
 * parsed, so neither JSON.parse nor validation (which walks every element, recursively) ever sees
 * a body bigger, deeper or longer than this.
 */
export interface BodyLimits {
  /** Bytes of the body as sent; more is refused with 413 before it is read to the end. */
  maxBytes: number;
  /** Nesting of objects and arrays (the body itself is level 1). */
  maxDepth: number;
  /** Elements of any one array, and keys of any one object. */
  maxArrayLength: number;
  /** Values in the whole document: objects, arrays, strings (object keys included), numbers, literals. */
  maxValues: number;
  /**
   * The access token is checked before the body is read (401 without reading it), so a stranger
   * cannot make the service read and parse megabytes. For routes that take large bodies.
   */
  tokenBeforeBody?: boolean;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** Every route not named below: settings, accounts, runs, batch actions. */
export const DEFAULT_BODY_LIMITS: Readonly<BodyLimits> = Object.freeze({ maxBytes: 64 * KiB, maxDepth: 32, maxArrayLength: 1_000, maxValues: 10_000 });

/** Login and the other credential routes: a few short strings. */
export const CREDENTIAL_BODY_LIMITS: Readonly<BodyLimits> = Object.freeze({ maxBytes: 4 * KiB, maxDepth: 4, maxArrayLength: 16, maxValues: 64 });

/**
 * Creating or replacing one sign task or keyword monitor: at most 50 chats of 50 actions (about
 * 15,000 values), up to 500 account names. Validation walks every value, so the count is the bound.
 */
export const SIGN_TASK_BODY_LIMITS: Readonly<BodyLimits> = Object.freeze({
  maxBytes: 512 * KiB,
  maxDepth: 32,
  maxArrayLength: 500,
  maxValues: 25_000,
  tokenBeforeBody: true,
});

/**
 * Configuration import and its preview: a whole export (the JSON text inside `config_json` is held
 * to the same bounds). A real export of a few hundred tasks is well below these.
 */
export const CONFIG_IMPORT_BODY_LIMITS: Readonly<BodyLimits> = Object.freeze({
  maxBytes: 4 * MiB,
  maxDepth: 32,
  maxArrayLength: 1_000,
  maxValues: 200_000,
  tokenBeforeBody: true,
});

const ROUTE_CONFIG_KEY = 'bodyLimits';

/**
 * Lets other requests (health checks first of all) run during a long piece of work on one
 * request, such as checking every task of an import: `await budget.yieldIfDue()` between steps
 * gives the event loop back once the work has held it for `sliceMs`.
 */
export class EventLoopBudget {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = 10) {}

  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.sliceStarted < this.sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.sliceStarted = performance.now();
  }
}

/** Gives a route other body limits than DEFAULT_BODY_LIMITS. */
export function BodyLimit(limits: Readonly<BodyLimits>): MethodDecorator {
  return applyDecorators(
    RouteConfig({ [ROUTE_CONFIG_KEY]: limits }),
    ApiPayloadTooLargeResponse({ description: `Body larger than ${limits.maxBytes} bytes` }),
  );
}

/** A request body beyond its route's limits: 400, or 413 for its size. */
export class RequestBodyLimitError extends Error {
  readonly code = 'PANEL_REQUEST_BODY_LIMIT';

  constructor(
    message: string,
    readonly statusCode: 400 | 413 = 400,
  ) {
    super(message);
    this.name = 'RequestBodyLimitError';
  }
}

/** A request body the JSON parser refused (Nest would otherwise turn the parser's SyntaxError into a bare 400). */
export class InvalidJsonBodyError extends Error {
  readonly code = 'PANEL_INVALID_JSON_BODY';
  readonly statusCode = 400;

  constructor(message: string) {
    super(message);
    this.name = 'InvalidJsonBodyError';
  }
}

/**
 * Why a JSON text breaks `limits` (depth, entries of one list or object, value count), or
 * undefined when it is within them. One pass with no recursion and no allocation per value: the
 * search jumps from one structural character to the next and over whole strings natively, so it
 * costs a few milliseconds per megabyte whatever the text holds. Values are counted as the
 * characters that introduce one (`[ { , :`), which bounds every value and object key. The text
 * need not be valid JSON; the parser that runs afterwards reports syntax errors.
 */
export function jsonShapeViolation(text: string, limits: Pick<BodyLimits, 'maxDepth' | 'maxArrayLength' | 'maxValues'>): string | undefined {
  const structural = /["[\]{},:]/g;
  // Separators seen in each open container; the innermost is last.
  const separators: number[] = [];
  let values = 1;
  for (let match = structural.exec(text); match; match = structural.exec(text)) {
    const at = match.index;
    switch (text.charCodeAt(at)) {
      case 0x22: {
        // A string: jump to the quote that closes it (one not escaped by an odd run of backslashes).
        let end = at;
        for (;;) {
          end = text.indexOf('"', end + 1);
          if (end < 0) return undefined;
          let backslashes = 0;
          while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
          if (backslashes % 2 === 0) break;
        }
        structural.lastIndex = end + 1;
        continue;
      }
      case 0x5b: // [
      case 0x7b: // {
        separators.push(0);
        if (separators.length > limits.maxDepth) return `Request body nests deeper than ${limits.maxDepth} levels`;
        break;
      case 0x5d: // ]
      case 0x7d: // }
        separators.pop();
        continue;
      case 0x2c: {
        // ,
        const top = separators.length - 1;
        if (top >= 0 && ++separators[top] >= limits.maxArrayLength) {
          return `Request body has a list or object with more than ${limits.maxArrayLength} entries`;
        }
        break;
      }
    }
    if (++values > limits.maxValues) return `Request body holds more than ${limits.maxValues} values`;
  }
  return undefined;
}

/** The body limits of the route a request was matched to. */
export function bodyLimitsOf(request: FastifyRequest): Readonly<BodyLimits> {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return (config?.[ROUTE_CONFIG_KEY] as BodyLimits | undefined) ?? DEFAULT_BODY_LIMITS;
}

/**
 * Installs the per-route body limits on a Fastify instance before Nest registers its routes:
 * each route's byte limit (Fastify refuses a larger Content-Length at once and stops reading a
 * longer stream), and a JSON parser that checks the shape before it parses. It replaces Nest's
 * parsers, so only JSON bodies are read at all (other content types answer 415).
 */
export function installBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const limits = (route.config as Record<string, unknown> | undefined)?.[ROUTE_CONFIG_KEY] as BodyLimits | undefined;
    route.bodyLimit = (limits ?? DEFAULT_BODY_LIMITS).maxBytes;
  });
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: DEFAULT_BODY_LIMITS.maxBytes }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const problem = jsonShapeViolation(text, bodyLimitsOf(request));
    if (problem) {
      done(new RequestBodyLimitError(problem), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (!error) done(null, value);
      else done(new InvalidJsonBodyError((error as { code?: unknown }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Request body is not valid JSON' : error.message), undefined);
    });
  });
}
