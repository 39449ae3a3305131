import { en, PanelTexts } from './en';

/** The languages of the panel: its web app's and its notifications'. */
export const PANEL_LANGUAGES = ['en', 'zh'] as const;
export type PanelLanguage = (typeof PANEL_LANGUAGES)[number];

export type TextParams = Record<string, string | number>;

/** Sections whose English the service stores or answers beside a code (so they can be read back). */
export type CodedSection = 'runMessage' | 'phaseDetail' | 'keepalive';
export type RunMessageCode = keyof PanelTexts['runMessage'];
export type PhaseDetailCode = keyof PanelTexts['phaseDetail'];
export type KeepaliveCode = keyof PanelTexts['keepalive'];

/** A text the service wrote, as its code and the parameters that fill the code's sentence. */
export interface CodedText<Code extends string = string> {
  code: Code;
  params: TextParams;
}

const PARAMETER = /\{\{(\w+)\}\}/g;

/** The template with each `{{name}}` replaced by its parameter; a parameter not given stays visible as `{{name}}`. */
export function fill(template: string, params: TextParams = {}): string {
  return template.replace(PARAMETER, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

/** The names of the parameters a template uses, in order. */
export function parametersOf(template: string): string[] {
  return [...template.matchAll(PARAMETER)].map((match) => match[1]);
}

/** The English text of a coded sentence: what the service stores and logs. */
export function englishText<S extends CodedSection>(section: S, code: keyof PanelTexts[S] & string, params: TextParams = {}): string {
  return fill((en[section] as Record<string, string>)[code], params);
}

type Reader = { code: string; pattern: RegExp; names: string[] };
const readers = new Map<CodedSection, Reader[]>();

function readersOf(section: CodedSection): Reader[] {
  let found = readers.get(section);
  if (!found) {
    found = Object.entries(en[section] as Record<string, string>).map(([code, template]) => {
      const literal = template.split(PARAMETER).map((part, index) => (index % 2 === 0 ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '(.+?)'));
      return { code, pattern: new RegExp(`^${literal.join('')}$`, 's'), names: parametersOf(template) };
    });
    readers.set(section, found);
  }
  return found;
}

/**
 * The code and parameters of an English text the service wrote by one of the section's templates
 * (runs stored before codes existed included); null for any other text (a bot's answer, an error
 * of a library). Numeric parameters come back as strings.
 */
export function readText<S extends CodedSection>(section: S, text: string): CodedText<keyof PanelTexts[S] & string> | null {
  for (const reader of readersOf(section)) {
    const match = reader.pattern.exec(text);
    if (!match) continue;
    const params: TextParams = {};
    reader.names.forEach((name, index) => (params[name] = match[index + 1]));
    return { code: reader.code as keyof PanelTexts[S] & string, params };
  }
  return null;
}
