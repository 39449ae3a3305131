// The Helm chart's consistency, without Helm (it cannot be installed here): every value a template
// reads is declared in values.yaml and values.schema.json, values.yaml passes the schema, and every
// template is well-formed YAML once the template actions are taken out.
import Ajv from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';

const chart = join(__dirname, '../helm/selfhost');
const templatesDir = join(chart, 'templates');
const templateFiles = readdirSync(templatesDir).sort();

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
};

const values = parseYaml(readFileSync(join(chart, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(chart, 'values.schema.json'), 'utf8')) as JsonSchema;

function valuesPaths(): string[] {
  const paths = new Set<string>();
  for (const file of templateFiles) {
    const text = readFileSync(join(templatesDir, file), 'utf8');
    for (const match of text.matchAll(/\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) paths.add(match[1].slice(1));
  }
  return [...paths].sort();
}

function existsInValues(path: string): boolean {
  let node: unknown = values;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

function existsInSchema(path: string): boolean {
  let node: JsonSchema | undefined = schema;
  for (const key of path.split('.')) {
    node = node?.properties?.[key];
    if (!node) return false;
  }
  return true;
}

/** What a template looks like once rendered: action-only lines dropped, inline actions replaced. */
function withoutTemplateActions(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(\{\{[\s\S]*?\}\}\s*)+$/.test(line))
    .map((line) => line.replace(/\{\{[\s\S]*?\}\}/g, 'PLACEHOLDER'))
    .join('\n');
}

interface Manifest {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; annotations?: Record<string, unknown> };
  spec?: Record<string, unknown>;
}

function manifests(file: string): Manifest[] {
  const documents = parseAllDocuments(withoutTemplateActions(readFileSync(join(templatesDir, file), 'utf8')));
  const parsed: Manifest[] = [];
  for (const document of documents) {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
    const content = document.toJS() as Manifest | null;
    if (content) parsed.push(content);
  }
  return parsed;
}

function manifest(file: string, kind: string, nameSuffix = ''): Manifest {
  const found = manifests(file).find(
    (item) => item.kind === kind && String(item.metadata?.name ?? '').endsWith(nameSuffix),
  );
  if (!found) throw new Error(`${file} has no ${kind} named *${nameSuffix}`);
  return found;
}

describe('Helm chart deploy/helm/selfhost', () => {
  const paths = valuesPaths();

  it('reads values from its templates', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths).toEqual(expect.arrayContaining(['panelApi.replicaCount', 'repoMonitor.database.driver']));
  });

  it('declares every .Values path a template uses in values.yaml', () => {
    expect(paths.filter((path) => !existsInValues(path))).toEqual([]);
  });

  it('declares every .Values path a template uses in values.schema.json', () => {
    expect(paths.filter((path) => !existsInSchema(path))).toEqual([]);
  });

  it('ships a values.yaml that passes its own schema, and the schema refuses bad values', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(values) ? [] : validate.errors).toEqual([]);

    const copy = () => JSON.parse(JSON.stringify(values)) as { panelApi: Record<string, Record<string, unknown>>; repoMonitor: Record<string, unknown> };
    const badDriver = copy();
    badDriver.panelApi['database']['driver'] = 'mysql';
    expect(validate(badDriver)).toBe(false);
    const typo = copy();
    typo.repoMonitor['replicas'] = 2;
    expect(validate(typo)).toBe(false);
    const badEnvName = copy();
    badEnvName.panelApi['env'] = { 'not a variable': 'x' };
    expect(validate(badEnvName)).toBe(false);
  });

  it.each(templateFiles.filter((file) => file.endsWith('.yaml')))('%s parses as Kubernetes YAML once template actions are removed', (file) => {
    for (const item of manifests(file)) {
      expect(typeof item.apiVersion).toBe('string');
      expect(typeof item.kind).toBe('string');
      expect(item.metadata?.name).toBeDefined();
    }
  });

  it('runs panel-api with health probes, a data volume, a config checksum, and its replica id and address from the pod', () => {
    const deployment = manifest('panel-api-deployment.yaml', 'Deployment') as { spec: { strategy: { type: string }; template: { metadata: { annotations: Record<string, string> }; spec: { containers: Array<Record<string, { httpGet?: { path: string } } | unknown>>; volumes: Array<{ name: string }> } } } };
    // One writer on SQLite (the old pod stops first); pods roll one by one on PostgreSQL, where leases keep each account on one pod.
    expect(readFileSync(join(templatesDir, 'panel-api-deployment.yaml'), 'utf8')).toContain('type: {{ if eq .Values.panelApi.database.driver "sqlite" }}Recreate{{ else }}RollingUpdate{{ end }}');
    const env = (deployment.spec.template.spec.containers[0] as { env: Array<{ name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } }> }).env;
    expect(env.find((item) => item.name === 'APP_CLUSTER_REPLICA_ID')?.valueFrom?.fieldRef.fieldPath).toBe('metadata.name');
    expect(env.find((item) => item.name === 'APP_CLUSTER_ADDRESS')?.value).toMatch(/^http:\/\/\$\(POD_IP\):/);
    expect(Object.keys(deployment.spec.template.metadata.annotations)).toEqual(expect.arrayContaining(['checksum/config', 'checksum/secret']));
    const container = deployment.spec.template.spec.containers[0] as Record<string, { httpGet: { path: string } }>;
    expect(container['livenessProbe'].httpGet.path).toBe('/healthz');
    expect(container['readinessProbe'].httpGet.path).toBe('/readyz');
    expect(deployment.spec.template.spec.volumes.map((volume) => volume.name)).toContain('data');
    expect(manifest('panel-api-pvc.yaml', 'PersistentVolumeClaim')).toBeDefined();
  });

  it('gives the event stream its own ingress with buffering and access logging off', () => {
    const events = manifest('panel-api-ingress.yaml', 'Ingress', '-events');
    expect(events.metadata?.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      'nginx.ingress.kubernetes.io/enable-access-log': 'false',
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
    });
    const monitor = manifest('repo-monitor-ingress.yaml', 'Ingress');
    expect(monitor.metadata?.annotations).toMatchObject({ 'nginx.ingress.kubernetes.io/proxy-body-size': '1m' });
  });

  it("lets through no larger panel-api bodies than panel-api accepts (64 KiB; 512 KiB for a task; 4 MiB for an import)", () => {
    const bodySize = (suffix: string) => manifest('panel-api-ingress.yaml', 'Ingress', suffix).metadata?.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(bodySize('-panel-api')).toBe('64k');
    expect(bodySize('-panel-api-tasks')).toBe('512k');
    expect(bodySize('-panel-api-imports')).toBe('4m');
    const imports = manifest('panel-api-ingress.yaml', 'Ingress', '-panel-api-imports') as { spec: { rules: Array<{ http: { paths: Array<{ pathType: string }> } }> } };
    expect(imports.spec.rules[0].http.paths.every((path) => path.pathType === 'Exact')).toBe(true);
    const template = readFileSync(join(templatesDir, 'panel-api-ingress.yaml'), 'utf8');
    expect(template).toContain('range list "/api/config/import-preview" "/api/config/import/all" "/api/config/import/sign"');
    expect(template).not.toMatch(/proxy-body-size: "10m"/);
  });

  it('runs repo-monitor as one Deployment, with a PodDisruptionBudget only for several replicas on PostgreSQL', () => {
    const deployments = templateFiles.filter((file) => file.endsWith('.yaml')).flatMap((file) => manifests(file).filter((item) => item.kind === 'Deployment' && String(item.metadata?.name).endsWith('-repo-monitor')));
    expect(deployments).toHaveLength(1);
    const template = readFileSync(join(templatesDir, 'repo-monitor-pdb.yaml'), 'utf8');
    const condition = /^\{\{- if (.+) \}\}$/m.exec(template)?.[1] ?? '';
    expect(condition).toContain('(gt (int .Values.repoMonitor.replicaCount) 1)');
    expect(condition).toContain('(eq .Values.repoMonitor.database.driver "postgres")');
    expect(condition).toContain('.Values.repoMonitor.podDisruptionBudget.enabled');
    const pdb = manifest('repo-monitor-pdb.yaml', 'PodDisruptionBudget', '-repo-monitor') as Manifest & { apiVersion: string; spec: { maxUnavailable: unknown; selector: { matchLabels: unknown } } };
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(pdb.spec.selector.matchLabels).toBeDefined();
    // The budget selects the Deployment's pods: both use the same selector labels.
    const selector = (text: string) => /include "selfhost\.selectorLabels" \(dict "root" \. "component" "([a-z-]+)"\)/.exec(text)?.[1];
    expect(selector(template)).toBe(selector(readFileSync(join(templatesDir, 'repo-monitor-deployment.yaml'), 'utf8')));
    expect(values).toMatchObject({ repoMonitor: { podDisruptionBudget: { enabled: true, maxUnavailable: 1 } } });
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const zero = JSON.parse(JSON.stringify(values)) as { repoMonitor: { podDisruptionBudget: { maxUnavailable: number } } };
    zero.repoMonitor.podDisruptionBudget.maxUnavailable = 0;
    expect(validate(zero)).toBe(false);
  });

  it('gives panel-api a PodDisruptionBudget only for several replicas on PostgreSQL', () => {
    const template = readFileSync(join(templatesDir, 'panel-api-pdb.yaml'), 'utf8');
    const condition = /^\{\{- if (.+) \}\}$/m.exec(template)?.[1] ?? '';
    expect(condition).toContain('(gt (int .Values.panelApi.replicaCount) 1)');
    expect(condition).toContain('(eq .Values.panelApi.database.driver "postgres")');
    expect(condition).toContain('.Values.panelApi.podDisruptionBudget.enabled');
    const pdb = manifest('panel-api-pdb.yaml', 'PodDisruptionBudget', '-panel-api') as Manifest & { apiVersion: string; spec: { selector: { matchLabels: unknown } } };
    expect(pdb.apiVersion).toBe('policy/v1');
    const selector = (text: string) => /include "selfhost\.selectorLabels" \(dict "root" \. "component" "([a-z-]+)"\)/.exec(text)?.[1];
    expect(selector(template)).toBe(selector(readFileSync(join(templatesDir, 'panel-api-deployment.yaml'), 'utf8')));
    expect(values).toMatchObject({ panelApi: { podDisruptionBudget: { enabled: true, maxUnavailable: 1 } } });
  });

  it('fails on values that would run two writers or lose secrets', () => {
    const validate = readFileSync(join(templatesDir, 'validate.yaml'), 'utf8');
    const failures = [...validate.matchAll(/\{\{-? if ([^\n]*?) \}\}\n\{\{-? fail "([^"]+)" \}\}/g)].map((match) => ({ condition: match[1], message: match[2] }));
    const find = (text: string) => failures.find((failure) => failure.message.includes(text));
    expect(find('panelApi.replicaCount > 1 needs panelApi.database.driver=postgres')?.condition).toContain('(gt (int .Values.panelApi.replicaCount) 1)');
    expect(find('repoMonitor.replicaCount > 1 needs repoMonitor.database.driver=postgres')?.condition).toContain('(ne .Values.repoMonitor.database.driver "postgres")');
    expect(find('MONITOR_OAUTH_CLIENT_SECRET needs MONITOR_ENCRYPTION_KEY')?.condition).toContain('MONITOR_ENCRYPTION_KEY');
    const panelKey = find('panelApi.database.driver=postgres needs APP_ENCRYPTION_KEY')?.condition;
    expect(panelKey).toContain('(eq .Values.panelApi.database.driver "postgres")');
    expect(panelKey).toContain('(not (index .Values.panelApi.secret.values "APP_ENCRYPTION_KEY"))');
    // A generated token key would differ per pod: replicas would refuse each other's tokens.
    const jwtSecret = find('panelApi.database.driver=postgres needs APP_JWT_SECRET')?.condition;
    expect(jwtSecret).toContain('(eq .Values.panelApi.database.driver "postgres")');
    expect(jwtSecret).toContain('(not (index .Values.panelApi.secret.values "APP_JWT_SECRET"))');
    // Several panel-api replicas no longer need a shared (ReadWriteMany) data directory.
    expect(validate).not.toContain('ReadWriteMany');
  });

  it('scales panel-api on PostgreSQL without a ReadWriteMany claim: several replicas get an emptyDir each, one replica or SQLite keeps the claim', () => {
    const helpers = readFileSync(join(templatesDir, '_helpers.tpl'), 'utf8');
    const claim = /\{\{- define "selfhost\.panelApi\.dataClaim" -\}\}\n[^\n]*\n\{\{- if (.+) -\}\}\ntrue\n/.exec(helpers)?.[1] ?? '';
    expect(claim).toContain('$persistence.enabled');
    expect(claim).toContain('(eq .Values.panelApi.database.driver "sqlite")');
    expect(claim).toContain('(le (int .Values.panelApi.replicaCount) 1)');
    expect(claim).toContain('$persistence.existingClaim');
    expect(claim).toContain('(eq $persistence.accessMode "ReadWriteMany")');
    const deployment = readFileSync(join(templatesDir, 'panel-api-deployment.yaml'), 'utf8');
    expect(deployment).toMatch(/- name: data\n\s+\{\{- if include "selfhost\.panelApi\.dataClaim" \. \}\}\n\s+persistentVolumeClaim:[\s\S]*?\{\{- else \}\}\n\s+emptyDir: \{\}/);
    expect(readFileSync(join(templatesDir, 'panel-api-pvc.yaml'), 'utf8')).toContain('(include "selfhost.panelApi.dataClaim" .)');
    // Three replicas on PostgreSQL pass the schema with the default ReadWriteOnce persistence, and keep the budget and rolling updates.
    const three = JSON.parse(JSON.stringify(values)) as { panelApi: { replicaCount: number; database: { driver: string }; persistence: { accessMode: string } } };
    three.panelApi.replicaCount = 3;
    three.panelApi.database.driver = 'postgres';
    expect(three.panelApi.persistence.accessMode).toBe('ReadWriteOnce');
    expect(new Ajv({ allErrors: true, strict: false }).compile(schema)(three)).toBe(true);
    expect(deployment).toContain('RollingUpdate');
    expect(readFileSync(join(templatesDir, 'panel-api-pdb.yaml'), 'utf8')).toContain('(gt (int .Values.panelApi.replicaCount) 1)');
  });

  // Without the ingress nothing sits in front of the Service, and any pod that reaches it could write
  // its own X-Forwarded-For: the chart trusts a proxy only when it deploys one, and never writes the
  // key twice when the values set it in `env`.
  it.each([
    ['panel-api-configmap.yaml', 'panelApi', 'APP_TRUST_PROXY'],
    ['repo-monitor-configmap.yaml', 'repoMonitor', 'MONITOR_HTTP_TRUST_PROXY'],
  ])('%s trusts the forwarded address only behind its own ingress', (file, key, variable) => {
    const text = readFileSync(join(templatesDir, file), 'utf8');
    const guard = `{{- if and .Values.${key}.ingress.enabled (not (hasKey .Values.${key}.env "${variable}")) }}`;
    const lines = text.split('\n');
    const setAt = lines.findIndex((line) => line.trim().startsWith(`${variable}:`));
    expect(setAt).toBeGreaterThan(0);
    const guardAt = lines.findIndex((line) => line.trim() === guard);
    expect(guardAt).toBeGreaterThanOrEqual(0);
    expect(guardAt).toBeLessThan(setAt);
    expect(lines.slice(guardAt + 1, setAt).some((line) => /\{\{-?\s*end/.test(line))).toBe(false);
    expect(lines.filter((line) => line.trim().startsWith(`${variable}:`))).toHaveLength(1);
  });
});
