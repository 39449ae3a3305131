import { z } from 'zod';
import { MERGE_RISKS, MergeRisk } from './pr-review.entity';

/** The diff sent to the model is capped at this many characters (repo-monitor-details.md). */
export const REVIEW_DIFF_CAP = 12_000;
/** An alert goes out below this score, or with any security risk. */
export const REVIEW_ALERT_SCORE = 60;

export interface CappedDiff {
  text: string;
  truncated: boolean;
  originalChars: number;
}

/** Caps the diff at REVIEW_DIFF_CAP characters, cutting at a line end when one is near. */
export function capDiff(diff: string, cap = REVIEW_DIFF_CAP): CappedDiff {
  if (diff.length <= cap) return { text: diff, truncated: false, originalChars: diff.length };
  const cut = diff.lastIndexOf('\n', cap);
  const end = cut > cap * 0.8 ? cut : cap;
  return { text: diff.slice(0, end), truncated: true, originalChars: diff.length };
}

export interface ReviewResult {
  summary: string;
  score: number;
  merge_risk: MergeRisk;
  security_risks: string[];
  breaking_risks: string[];
  suggestions: string[];
  missing_tests: string[];
}

const findings = z
  .array(z.union([z.string(), z.record(z.string(), z.unknown())]))
  .optional()
  .transform((items) => (items ?? []).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)).trim().slice(0, 1000)).filter(Boolean).slice(0, 20));

const reviewSchema = z.object({
  summary: z.string().trim().min(1).max(4000),
  score: z.coerce.number().min(0).max(100).transform((value) => Math.round(value)),
  merge_risk: z
    .string()
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.enum(MERGE_RISKS)),
  security_risks: findings,
  breaking_risks: findings,
  suggestions: findings,
  missing_tests: findings,
});

/** The JSON object in a model answer (bare, or inside a ```json fence). */
export function extractJsonObject(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const candidate = (fenced ?? text).trim();
  const start = candidate.indexOf('{');
  const end = candidate.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the answer holds no JSON object');
  return JSON.parse(candidate.slice(start, end + 1)) as unknown;
}

/** Parses and checks a review answer; throws with a short reason when it does not fit the schema. */
export function parseReviewResult(text: string): ReviewResult {
  let json: unknown;
  try {
    json = extractJsonObject(text);
  } catch (error) {
    throw new Error(`the review is not a JSON object: ${(error as Error).message}`.slice(0, 300));
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`the review does not fit the schema: ${issue?.path.join('.') || 'root'} ${issue?.message ?? ''}`.trim().slice(0, 300));
  }
  return parsed.data;
}

/** Whether a review crosses the alert thresholds: any security risk, or a score under 60. */
export function reviewNeedsAlert(result: Pick<ReviewResult, 'score' | 'security_risks'>): boolean {
  return result.security_risks.length > 0 || result.score < REVIEW_ALERT_SCORE;
}
