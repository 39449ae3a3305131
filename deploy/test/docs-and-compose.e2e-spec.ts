// What a newcomer relies on when following the docs: every variable either service reads is
// documented, the settings templates name only real variables, the compose services are the ones
// nginx forwards to, and every link between the docs leads somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, parse as parseYaml } from 'yaml';

const root = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Property names of an environment class: the variables the service validates and reads. */
function declaredVariables(path: string): string[] {
  return [...read(path).matchAll(/\b([A-Z][A-Z0-9_]+)\?:/g)].map((match) => match[1]);
}

const panelVariables = declaredVariables('apps/panel-api/src/app/config/panel-environment.ts');
const monitorVariables = declaredVariables('apps/repo-monitor/src/app/config/monitor-environment.ts');
// repo-monitor also reads these aliases (folded into the MONITOR_ forms).
const monitorAliases = ['LOG_FORMAT', 'LOG_LEVEL'];

function envFileVariables(path: string): string[] {
  return read(path)
    .split('\n')
    .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => Boolean(name));
}

describe('docs and compose', () => {
  const configuration = read('docs/configuration.md');

  it('finds the variables of both services', () => {
    expect(panelVariables).toEqual(expect.arrayContaining(['APP_DATA_DIR', 'ADMIN_PASSWORD', 'APP_TRUST_PROXY']));
    expect(monitorVariables).toEqual(expect.arrayContaining(['MONITOR_HTTP_ADDR', 'MONITOR_ENCRYPTION_KEY', 'MONITOR_HTTP_TRUST_PROXY']));
  });

  it('documents every variable of both services in docs/configuration.md', () => {
    const missing = [...panelVariables, ...monitorVariables].filter((name) => !configuration.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('names only real variables in the compose settings templates', () => {
    expect(envFileVariables('deploy/panel-api.env.example').filter((name) => !panelVariables.includes(name))).toEqual([]);
    expect(
      envFileVariables('deploy/repo-monitor.env.example').filter((name) => !monitorVariables.includes(name) && !monitorAliases.includes(name)),
    ).toEqual([]);
  });

  it('runs the services nginx forwards to, on the ports nginx expects, trusting only the proxy', () => {
    const compose = parseYaml(read('deploy/compose.yaml')) as {
      services: Record<string, { expose?: string[]; ports?: string[]; environment?: Record<string, string>; profiles?: string[]; volumes?: string[] }>;
    };
    const nginx = read('deploy/proxy/nginx.conf');
    expect(nginx).toContain('server panel-api:8000;');
    expect(nginx).toContain('server repo-monitor:8080;');
    expect(compose.services['panel-api'].expose).toEqual(['8000']);
    expect(compose.services['repo-monitor'].expose).toEqual(['8080']);
    expect(compose.services['repo-monitor'].environment?.['MONITOR_HTTP_ADDR']).toBe('0.0.0.0:8080');
    // Trusting X-Forwarded-For is safe only while nginx is the one way in.
    expect(compose.services['panel-api'].ports).toBeUndefined();
    expect(compose.services['repo-monitor'].ports).toBeUndefined();
    expect(compose.services['panel-api'].environment?.['APP_TRUST_PROXY']).toBe('true');
    expect(compose.services['repo-monitor'].environment?.['MONITOR_HTTP_TRUST_PROXY']).toBe('true');
    expect(compose.services['nginx'].volumes).toContain('./proxy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(compose.services['postgres'].profiles).toEqual(['postgres']);
  });

  it('runs two panel-api replicas on PostgreSQL behind the same nginx, each with its own scratch data directory', () => {
    const document = parseDocument(read('deploy/compose.panel-cluster.yaml'), { customTags: [{ tag: '!override', collection: 'seq', resolve: (value: unknown) => value }] });
    expect(document.errors).toEqual([]);
    const cluster = document.toJS() as { services: Record<string, { deploy?: { replicas?: number }; volumes?: string[]; depends_on?: Record<string, { condition: string; required: boolean }> }> };
    const base = parseYaml(read('deploy/compose.yaml')) as { services: Record<string, { volumes?: string[] }> };
    expect(Object.keys(cluster.services)).toEqual(['panel-api']);
    expect(cluster.services['panel-api'].deploy?.replicas).toBe(2);
    // The shared named volume is replaced, not added to: an anonymous /data per replica.
    expect(read('deploy/compose.panel-cluster.yaml')).toMatch(/volumes: !override\n\s+- \/data\n/);
    expect(cluster.services['panel-api'].volumes).toEqual(['/data']);
    expect(base.services['panel-api'].volumes).toEqual(['panel-data:/data']);
    expect(cluster.services['panel-api'].depends_on?.['postgres']).toEqual({ condition: 'service_healthy', required: true });
    // nginx sends to every address of the service name: the upstream names the service, not one container.
    expect(read('deploy/proxy/nginx.conf')).toContain('server panel-api:8000;');
    // The replicas need the shared keys that the configuration requires with PostgreSQL.
    for (const variable of ['APP_DATABASE_URL', 'APP_ENCRYPTION_KEY', 'APP_JWT_SECRET']) expect(read('deploy/panel-api.env.example')).toContain(`# ${variable}=`);
  });

  it('links only to docs, files and sections that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    const files = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'));
    const anchors = (text: string) =>
      new Set(
        [...text.matchAll(/^#+ (.+)$/gm)].map((match) =>
          match[1]
            .toLowerCase()
            .replace(/[`'’]/g, '')
            .replace(/[^a-z0-9 -]/g, '')
            .trim()
            .replace(/ /g, '-'),
        ),
      );
    for (const file of files) {
      const text = read(`docs/${file}`);
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1];
        if (/^[a-z]+:/.test(target)) continue;
        checked += 1;
        const [path, anchor] = target.split('#');
        const targetFile = path ? join(root, 'docs', path) : join(root, 'docs', file);
        if (!existsSync(targetFile)) {
          broken.push(`${file} -> ${target}`);
          continue;
        }
        if (anchor && targetFile.endsWith('.md') && !anchors(readFileSync(targetFile, 'utf8')).has(anchor)) {
          broken.push(`${file} -> ${target}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
