import { spawnSync } from 'node:child_process';

/**
 * `promtool check metrics` (Prometheus's own linter, Debian's prometheus package) over an
 * exposition text: the findings it prints, none when the text is clean. Throws when promtool is
 * missing, so a machine without it fails the test instead of skipping it (.ci/run installs it).
 */
export function promtoolCheckMetrics(exposition: string): { status: number; findings: string[] } {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8', timeout: 30_000 });
  if (result.error) throw new Error(`promtool is needed for this test (apt-get install prometheus): ${result.error.message}`);
  const findings = `${result.stdout}\n${result.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return { status: result.status ?? -1, findings };
}
