import { RE2JS } from 're2js';

/** One match: the whole match first, then each capture group (undefined when it took no part). */
export type LinearRegexMatch = [string, ...Array<string | undefined>];

/**
 * A regular expression run by RE2 (the pure JavaScript port `re2js`): matching takes time linear
 * in the text, whatever the pattern, so an owner's pattern such as `(a+)+$` cannot stall the
 * service on a hostile chat message. The price is RE2's syntax: no lookaround, no backreferences.
 */
export class LinearRegex {
  private constructor(private readonly compiled: RE2JS) {}

  /**
   * Compiles `pattern` (JavaScript-style escapes `\uXXXX` and `\u{X…}` are accepted); throws
   * LinearRegexSyntaxError with the reason when RE2 cannot run it.
   */
  static compile(pattern: string, options: { ignoreCase: boolean }): LinearRegex {
    try {
      return new LinearRegex(RE2JS.compile(toRe2Syntax(pattern), options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
    } catch (error) {
      throw new LinearRegexSyntaxError(pattern, error instanceof Error ? error.message : String(error));
    }
  }

  /** The first match in `text`, or null. */
  exec(text: string): LinearRegexMatch | null {
    const matcher = this.compiled.matcher(text);
    if (!matcher.find()) return null;
    const match: LinearRegexMatch = [matcher.group(0) ?? ''];
    for (let group = 1; group <= matcher.groupCount(); group++) match.push(matcher.group(group) ?? undefined);
    return match;
  }
}

/** A pattern the linear-time engine refuses; `message` says why in terms an owner can act on. */
export class LinearRegexSyntaxError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(
      `${reason.replace(/^error parsing regexp: /, '').replace('`(?i)', '`')}. Keyword patterns run on untrusted chat text with RE2, which always ` +
        'finishes in linear time and so has no lookaround ((?=, (?!, (?<=, (?<!) and no backreferences (\\1)',
    );
    this.name = 'LinearRegexSyntaxError';
  }
}

/** Why RE2 cannot run `pattern`, or undefined when it can. */
export function linearRegexProblem(pattern: string, ignoreCase: boolean): string | undefined {
  try {
    LinearRegex.compile(pattern, { ignoreCase });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** JavaScript's `\uXXXX` and `\u{X…}` written as RE2's `\x{…}`; an escaped backslash before them is left alone. */
function toRe2Syntax(pattern: string): string {
  return pattern.replace(/(?<!\\)((?:\\\\)*)\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/g, (_all, backslashes: string, four?: string, braced?: string) => `${backslashes}\\x{${four ?? braced}}`);
}
