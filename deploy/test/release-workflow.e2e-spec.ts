// The image tags of a release: runs the tag step of .github/workflows/release.yml with bash, as
// GitHub Actions would, for each kind of trigger, and checks the tags and build arguments it outputs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const workflowPath = join(__dirname, '../../.github/workflows/release.yml');

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { needs?: string | string[]; steps: Array<{ id?: string; run?: string; with?: Record<string, string> }> }>;
}

const workflow = parseYaml(readFileSync(workflowPath, 'utf8')) as Workflow;
const tagScript = workflow.jobs['image'].steps.find((step) => step.id === 'meta')?.run ?? '';

function runTagStep(env: Record<string, string>, app = 'panel-api'): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'release-tags-'));
  try {
    const output = join(dir, 'output');
    const script = tagScript.replace(/\$\{\{ matrix\.app \}\}/g, app);
    execFileSync('bash', ['-c', script], {
      env: { PATH: process.env['PATH'] ?? '', GITHUB_OUTPUT: output, GITHUB_REPOSITORY_OWNER: 'SignPulse', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return Object.fromEntries(
      readFileSync(output, 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sha = '0123456789abcdef0123456789abcdef01234567';
const image = 'ghcr.io/signpulse/panel-api';

describe('release workflow', () => {
  it('tests before it builds images, on dev, main, version tags and manual runs', () => {
    expect(workflow.jobs['image'].needs).toBe('test');
    expect(workflow.jobs['test'].steps.map((step) => step.run)).toContain('npm test');
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.on['push']).toEqual({ branches: ['dev', 'main'], tags: ['v*.*.*'] });
    const build = workflow.jobs['image'].steps.find((step) => step.with?.['build-args']);
    for (const arg of ['APP_VERSION', 'GIT_SHA', 'GIT_BRANCH', 'BUILD_TIME']) expect(build?.with?.['build-args']).toContain(`${arg}=`);
  });

  it('tags a dev push dev and dev-<sha>', () => {
    const out = runTagStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'dev', GITHUB_SHA: sha });
    expect(out['tags'].split(',')).toEqual([`${image}:dev`, `${image}:dev-${sha}`]);
    expect(out['version']).toBe('');
    expect(out['branch']).toBe('dev');
    expect(out['build_time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('tags a main push main and main-<sha>', () => {
    const out = runTagStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main', GITHUB_SHA: sha });
    expect(out['tags'].split(',')).toEqual([`${image}:main`, `${image}:main-${sha}`]);
  });

  it('tags a release vX.Y.Z and latest, with APP_VERSION X.Y.Z', () => {
    const out = runTagStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.4.2', GITHUB_SHA: sha });
    expect(out['tags'].split(',')).toEqual([`${image}:v1.4.2`, `${image}:latest`]);
    expect(out['version']).toBe('1.4.2');
    expect(out['sha']).toBe(sha);
  });

  it('tags a manual run test-<ref> and test-<short-sha>, with the ref made tag-safe', () => {
    const out = runTagStep({ GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'feature/proxy', GITHUB_SHA: sha });
    expect(out['tags'].split(',')).toEqual([`${image}:test-feature-proxy`, `${image}:test-0123456`]);
  });

  it('refuses to tag a push from any other branch', () => {
    expect(() => runTagStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'topic', GITHUB_SHA: sha })).toThrow();
  });

  // Helm renders `image.tag | default …` from Chart.yaml's appVersion; the image it names must be one
  // a release of that version publishes, or `helm install` pulls an image that does not exist.
  it.each([
    ['panel-api', 'panelApi'],
    ['repo-monitor', 'repoMonitor'],
  ])('publishes the image the Helm chart installs by default (%s)', (app, key) => {
    const chartDir = join(__dirname, '../helm/selfhost');
    const appVersion = String((parseYaml(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { appVersion: unknown }).appVersion);
    const values = parseYaml(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, { image: { repository: string; tag: string } }>;
    const template = readFileSync(join(chartDir, `templates/${app}-deployment.yaml`), 'utf8');
    const line = template.split('\n').find((text) => text.includes(`.Values.${key}.image.repository`)) ?? '';
    const tagExpression = /:\{\{ \.Values\.\w+\.image\.tag \| default (.+?) \}\}"/.exec(line)?.[1];
    // The two spellings a chart uses for this; anything else must be taught to this test first.
    const defaults: Record<string, string> = { '.Chart.AppVersion': appVersion, '(printf "v%s" .Chart.AppVersion)': `v${appVersion}` };
    expect(tagExpression && tagExpression in defaults).toBe(true);
    const rendered = `${values[key].image.repository}:${values[key].image.tag || defaults[tagExpression as string]}`;

    const out = runTagStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: `v${appVersion}`, GITHUB_SHA: sha }, app);
    expect(out['tags'].split(',')).toContain(rendered);
  });
});
