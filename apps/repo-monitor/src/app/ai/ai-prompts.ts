import { ChatMessage } from './ai-client';

const SYSTEM = 'You assist the maintainers of GitHub repositories. Answer in plain text (no Markdown tables), concise and factual.';

/** The fixed connectivity-test message: no repository data at all. */
export const CONNECTIVITY_TEST_MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'This is a connectivity test.' },
  { role: 'user', content: 'Reply with the single word: pong' },
];

export function triagePrompt(alert: { repository: string | null; title: string; body: string; kind: string; severity: unknown }): ChatMessage[] {
  return [
    { role: 'system', content: `${SYSTEM} You triage security alerts.` },
    {
      role: 'user',
      content:
        'Assess this security alert in at most 4 short sentences: how urgent it is, what is likely affected, and the next step.\n' +
        `Repository: ${alert.repository ?? 'unknown'}\nKind: ${alert.kind}\nSeverity: ${String(alert.severity ?? 'unknown')}\n` +
        `Title: ${alert.title}\nDetails: ${alert.body.slice(0, 2000)}`,
    },
  ];
}

export function releaseSummaryPrompt(release: { repository: string | null; title: string; notes: string; tag: unknown }): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        'Summarise this release for a user who starred the repository, in at most 3 short sentences: what is new, ' +
        'and anything that may break an upgrade.\n' +
        `Repository: ${release.repository ?? 'unknown'}\nRelease: ${release.title} (${String(release.tag ?? '')})\nNotes:\n${release.notes.slice(0, 4000) || '(no release notes)'}`,
    },
  ];
}

export function failureDiagnosisPrompt(run: { repository: string | null; workflow: unknown; branch: unknown; conclusion: unknown; jobName: string; logTail: string }): ChatMessage[] {
  return [
    { role: 'system', content: `${SYSTEM} You diagnose failed CI runs from their logs.` },
    {
      role: 'user',
      content:
        'From the end of this failed job log, name the most likely cause in at most 3 short sentences and suggest one fix.\n' +
        `Repository: ${run.repository ?? 'unknown'}\nWorkflow: ${String(run.workflow ?? '')}\nBranch: ${String(run.branch ?? '')}\n` +
        `Conclusion: ${String(run.conclusion ?? '')}\nJob: ${run.jobName}\nLog (last lines):\n${run.logTail}`,
    },
  ];
}

export function pullRequestReviewPrompt(pull: { repository: string; number: number; title: string; body: string; diff: string; truncated: boolean }): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You review pull requests for correctness and security. Answer with one JSON object only, with exactly these keys: ' +
        '"summary" (string, 1-3 sentences), "score" (integer 0-100, higher is better and safer to merge), ' +
        '"merge_risk" ("low" | "medium" | "high"), "security_risks" (array of strings), "breaking_risks" (array of strings), ' +
        '"suggestions" (array of strings), "missing_tests" (array of strings). Use empty arrays when there is nothing to report.',
    },
    {
      role: 'user',
      content:
        `Repository: ${pull.repository}\nPull request #${pull.number}: ${pull.title}\nDescription: ${pull.body.slice(0, 2000) || '(none)'}\n` +
        (pull.truncated ? 'Note: the diff below is truncated; judge only what is shown.\n' : '') +
        `Diff:\n${pull.diff}`,
    },
  ];
}

export function digestPrompt(period: string, facts: string, headlines: string[]): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Write a ${period} digest for the maintainers in at most 8 short lines: what needs attention first (security, failing CI), ` +
        'then notable activity. Use only the facts given.\n' +
        `Facts:\n${facts}\nEvents (newest first):\n${headlines.slice(0, 60).join('\n') || '(none)'}`,
    },
  ];
}

/** The end of a job log that fits the prompt: the last lines, where the error usually is. */
export function logTail(log: string, maxChars = 6000): string {
  const cleaned = log.replace(/\r/g, '').replace(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z /gm, '');
  return cleaned.length <= maxChars ? cleaned : cleaned.slice(cleaned.length - maxChars);
}
