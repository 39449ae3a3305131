import { createHash, createHmac, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, verify, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { headerValue, LocalHttpServer, type RecordedRequest, sendJson } from './local-http-server';

/** An RSA key pair like the one GitHub issues for an App (private key in PKCS#1 PEM). */
export function generateGitHubAppKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

export interface GitHubAccount {
  login: string;
  id: number;
  type: 'User' | 'Organization';
}

export type GitHubRepository = Record<string, unknown> & {
  id: number;
  name: string;
  full_name: string;
  owner: GitHubAccount & Record<string, unknown>;
  private: boolean;
  html_url: string;
  default_branch: string;
  archived: boolean;
};

export interface GitHubInstallationState {
  id: number;
  account: GitHubAccount;
  repositorySelection: 'all' | 'selected';
  /** Full names of the repositories the installation can see. */
  repositories: string[];
  permissions: Record<string, string>;
}

export type GitHubRelease = Record<string, unknown> & { id: number; tag_name: string; draft: boolean; prerelease: boolean };

export interface GitHubWorkflowJobState {
  id: number;
  name: string;
  status?: string;
  conclusion?: string | null;
  steps?: Array<{ name: string; status: string; conclusion: string | null; number: number }>;
  /** Served by the job-logs endpoint (after GitHub's redirect). */
  log?: string;
}

export interface GitHubIssueComment {
  id: number;
  node_id: string;
  body: string;
  html_url: string;
  issue_url: string;
  user: GitHubAccount & Record<string, unknown>;
  created_at: string;
  updated_at: string;
  /** `owner/repo#number` the comment belongs to (not part of GitHub's shape). */
  issue: string;
}

export interface GitHubIssueState {
  number: number;
  title: string;
  state: 'open' | 'closed';
  body?: string | null;
  user?: string;
  labels?: string[];
  created_at?: string;
  updated_at?: string;
  closed_at?: string | null;
}

export interface GitHubApiFault {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  /** Only requests whose path matches (default: any path). */
  path?: RegExp;
}

export interface LocalGitHubApiOptions {
  appId: number;
  /** PEM public key the App JWT must verify against (see {@link generateGitHubAppKeyPair}). */
  publicKey: string;
  /** Also accepted as the JWT `iss`. */
  clientId?: string;
  appSlug?: string;
  /** Personal access tokens accepted for every repository (e.g. MONITOR_EXTERNAL_PAT). */
  personalAccessTokens?: string[];
  /** Requests per hour in the rate-limit headers (default 5000). */
  rateLimit?: number;
  /**
   * What an App created through the manifest flow gets: the private key handed out by the conversion
   * (the pair of `publicKey`, so the new App can authenticate here at once) and its secrets.
   * Without it the manifest pages answer 404.
   */
  manifestFlow?: { privateKey: string; clientSecret?: string; webhookSecret?: string };
}

/** One attempt to deliver an App webhook, as `GET /app/hook/deliveries` lists it (plus what it sent). */
export interface GitHubHookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  /** 0 when the target could not be reached at all. */
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: string | null;
  /** The JSON body sent (not part of GitHub's list shape). */
  body: string;
}

/** Where the App's webhook goes and the secret its deliveries are signed with. */
export interface GitHubAppWebhook {
  url: string;
  secret: string;
}

/** A manifest posted to the "new App" page, from the form to the code exchange. */
export interface GitHubManifestSubmission {
  id: string;
  /** The organization login, or undefined for the personal account. */
  organization?: string;
  state: string | null;
  manifest: Record<string, unknown>;
  /** Set once the person confirmed on the page. */
  code?: string;
  codeIssuedAt?: Date;
  converted: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

interface IssuedToken {
  token: string;
  installationId: number;
  expiresAt: Date;
}

type Caller = { kind: 'anonymous' } | { kind: 'app' } | { kind: 'installation'; installationId: number } | { kind: 'pat' };

const DOCS = 'https://docs.github.com/rest';

function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A small GitHub REST API for @octokit/app and octokit pointed at it with `baseUrl`: App JWT checked
 * with RS256, installation tokens, installation repositories (paginated with Link), repositories,
 * starred (ETag / 304), latest release, issues (with pull requests), pull requests (JSON or diff), workflow jobs and logs,
 * issue comments and rate limits. State is set by tests; every request is recorded.
 */
export class LocalGitHubApi extends LocalHttpServer {
  readonly installations = new Map<number, GitHubInstallationState>();
  readonly repositories = new Map<string, GitHubRepository>();
  readonly starred = new Map<string, string[]>();
  readonly releases = new Map<string, GitHubRelease[]>();
  readonly pulls = new Map<string, { pull: Record<string, unknown>; diff: string }>();
  readonly workflowJobs = new Map<string, GitHubWorkflowJobState[]>();
  readonly comments: GitHubIssueComment[] = [];
  /** Issues (not pull requests) per repository, keyed `owner/repo#number` (lower-case). */
  readonly issues = new Map<string, GitHubIssueState>();
  /** Manifests posted to the "new App" pages, oldest first. */
  readonly manifestSubmissions: GitHubManifestSubmission[] = [];
  /** Installation tokens handed out, oldest first. */
  readonly issuedTokens: IssuedToken[] = [];
  /** How many conditional requests were answered 304. */
  notModifiedCount = 0;
  /** Every attempt to deliver an App webhook, oldest first (redeliveries included). */
  readonly hookDeliveries: GitHubHookDelivery[] = [];
  /** Delivery ids a redelivery was asked for (`POST /app/hook/deliveries/{id}/attempts`), in order. */
  readonly redeliveryRequests: number[] = [];
  /** Where App webhooks go; without it `sendAppWebhook` throws. */
  appWebhook: GitHubAppWebhook | undefined;
  private readonly pendingRedeliveries = new Set<Promise<unknown>>();
  private nextHookDeliveryId = 90_000_000;
  private readonly publicKey: KeyObject;
  private readonly faults: GitHubApiFault[] = [];
  private nextId = 1000;
  private rateUsed = 0;
  private readonly rateReset = Math.floor(Date.now() / 1000) + 3600;

  constructor(private readonly options: LocalGitHubApiOptions) {
    super();
    this.publicKey = createPublicKey(options.publicKey);
  }

  /** Rate limit remaining in the current window. */
  get rateRemaining(): number {
    return Math.max(0, (this.options.rateLimit ?? 5000) - this.rateUsed);
  }

  /** Adds (or replaces) a repository; `fullName` is `owner/name`. */
  addRepository(fullName: string, overrides: Partial<GitHubRepository> = {}): GitHubRepository {
    const [ownerLogin, name] = fullName.split('/') as [string, string];
    const id = this.nextId++;
    const owner = { login: ownerLogin, id: this.nextId++, type: 'User' as const, html_url: `https://github.com/${ownerLogin}` };
    const repository: GitHubRepository = {
      id,
      node_id: `R_${id}`,
      name,
      full_name: fullName,
      owner,
      private: false,
      html_url: `https://github.com/${fullName}`,
      description: null,
      fork: false,
      url: `${this.safeUrl()}/repos/${fullName}`,
      default_branch: 'main',
      archived: false,
      disabled: false,
      visibility: overrides.private ? 'private' : 'public',
      stargazers_count: 0,
      watchers_count: 0,
      open_issues_count: 0,
      language: null,
      topics: [],
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      pushed_at: '2024-01-01T00:00:00Z',
      ...overrides,
    };
    this.repositories.set(fullName.toLowerCase(), repository);
    return repository;
  }

  /** Adds an installation; repositories not yet known are created. */
  addInstallation(installation: { id: number; account: string | GitHubAccount; repositories?: string[]; repositorySelection?: 'all' | 'selected'; permissions?: Record<string, string> }): GitHubInstallationState {
    const account = typeof installation.account === 'string' ? { login: installation.account, id: this.nextId++, type: 'Organization' as const } : installation.account;
    const repositories = installation.repositories ?? [];
    for (const fullName of repositories) if (!this.repositories.has(fullName.toLowerCase())) this.addRepository(fullName);
    const state: GitHubInstallationState = {
      id: installation.id,
      account,
      repositories,
      repositorySelection: installation.repositorySelection ?? 'selected',
      permissions: installation.permissions ?? { metadata: 'read', issues: 'write', pull_requests: 'write', actions: 'read', contents: 'read' },
    };
    this.installations.set(state.id, state);
    return state;
  }

  setStarred(user: string, fullNames: string[]): void {
    for (const fullName of fullNames) if (!this.repositories.has(fullName.toLowerCase())) this.addRepository(fullName);
    this.starred.set(user.toLowerCase(), [...fullNames]);
  }

  /** Adds a release at the front (the newest); `latest` skips drafts and pre-releases like GitHub. */
  addRelease(fullName: string, release: Partial<GitHubRelease> & { tag_name: string }): GitHubRelease {
    const id = this.nextId++;
    const full: GitHubRelease = {
      id,
      node_id: `RE_${id}`,
      name: release.tag_name,
      draft: false,
      prerelease: false,
      body: '',
      html_url: `https://github.com/${fullName}/releases/tag/${release.tag_name}`,
      created_at: iso(new Date()),
      published_at: iso(new Date()),
      author: { login: 'releaser', id: 1, type: 'User' },
      ...release,
    };
    this.releases.set(fullName.toLowerCase(), [full, ...(this.releases.get(fullName.toLowerCase()) ?? [])]);
    return full;
  }

  setPullRequest(fullName: string, number: number, pull: { title?: string; state?: 'open' | 'closed'; draft?: boolean; headSha?: string; diff?: string; [key: string]: unknown }): void {
    const { diff, headSha, ...rest } = pull;
    const id = this.nextId++;
    this.pulls.set(`${fullName.toLowerCase()}#${number}`, {
      diff: diff ?? '',
      pull: {
        id,
        node_id: `PR_${id}`,
        number,
        state: 'open',
        title: `PR ${number}`,
        draft: false,
        merged: false,
        html_url: `https://github.com/${fullName}/pull/${number}`,
        diff_url: `https://github.com/${fullName}/pull/${number}.diff`,
        user: { login: 'contributor', id: 2, type: 'User' },
        head: { sha: headSha ?? createHash('sha1').update(`${fullName}#${number}`).digest('hex'), ref: 'feature' },
        base: { ref: 'main' },
        ...rest,
      },
    });
  }

  /** Adds or replaces an issue; `GET /repos/{o}/{r}/issues` lists it with the repository's pull requests. */
  setIssue(fullName: string, issue: Partial<GitHubIssueState> & { number: number; title: string }): GitHubIssueState {
    if (!this.repositories.has(fullName.toLowerCase())) this.addRepository(fullName);
    const now = iso(new Date());
    const state: GitHubIssueState = { state: 'open', body: null, user: 'reporter', labels: [], created_at: now, updated_at: now, closed_at: null, ...issue };
    this.issues.set(`${fullName.toLowerCase()}#${issue.number}`, state);
    return state;
  }

  setWorkflowJobs(fullName: string, runId: number, jobs: GitHubWorkflowJobState[]): void {
    this.workflowJobs.set(`${fullName.toLowerCase()}/${runId}`, jobs);
  }

  /** The next matching requests answer these faults (e.g. 403 rate limited, 502), in order. */
  failNext(...faults: GitHubApiFault[]): void {
    this.faults.push(...faults);
  }

  /**
   * Sends an App webhook as GitHub does (X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256 over
   * the exact body) to `appWebhook` and records the attempt, reached or not (status_code 0 when the
   * target is down). A redelivery keeps the guid and gets a new id.
   */
  async sendAppWebhook(event: string, payload: Record<string, unknown>, options: { guid?: string; redelivery?: boolean; body?: string } = {}): Promise<GitHubHookDelivery> {
    const target = this.appWebhook;
    if (!target) throw new Error('LocalGitHubApi.appWebhook is not set');
    const guid = options.guid ?? randomUUID();
    const body = options.body ?? JSON.stringify(payload);
    const started = Date.now();
    let statusCode = 0;
    let status = 'failed to connect to host';
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/stand-in',
          'x-github-event': event,
          'x-github-delivery': guid,
          'x-github-hook-id': '1',
          'x-hub-signature-256': `sha256=${createHmac('sha256', target.secret).update(body).digest('hex')}`,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      statusCode = response.status;
      status = response.ok ? 'OK' : `Invalid HTTP Response: ${response.status}`;
    } catch {
      // Nothing listening, reset or timed out: recorded as GitHub records it, as a failed attempt.
    }
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const installation = parsed['installation'] as { id?: unknown } | undefined;
    const repository = parsed['repository'] as { id?: unknown } | undefined;
    const delivery: GitHubHookDelivery = {
      id: this.nextHookDeliveryId++,
      guid,
      delivered_at: iso(new Date(started)),
      redelivery: options.redelivery ?? false,
      duration: (Date.now() - started) / 1000,
      status,
      status_code: statusCode,
      event,
      action: typeof parsed['action'] === 'string' ? parsed['action'] : null,
      installation_id: typeof installation?.id === 'number' ? installation.id : null,
      repository_id: typeof repository?.id === 'number' ? repository.id : null,
      throttled_at: null,
      body,
    };
    this.hookDeliveries.push(delivery);
    return delivery;
  }

  /** Resolves once every redelivery asked for so far has been attempted. */
  async redeliveriesSettled(): Promise<void> {
    while (this.pendingRedeliveries.size > 0) await Promise.allSettled([...this.pendingRedeliveries]);
  }

  protected override handle(request: RecordedRequest, response: ServerResponse): void {
    const caller = this.authenticate(request);
    if (caller === undefined) return this.error(response, 401, 'Bad credentials');
    const faultIndex = this.faults.findIndex((fault) => !fault.path || fault.path.test(request.path));
    if (faultIndex !== -1) {
      const [fault] = this.faults.splice(faultIndex, 1) as [GitHubApiFault];
      return this.error(response, fault.status, fault.message ?? 'Stand-in fault', fault.headers);
    }
    const route = `${request.method} ${request.path}`;
    let match: RegExpExecArray | null;
    if (request.method === 'GET' && request.path.startsWith('/_stand-in/job-logs/')) return this.jobLog(request, response);
    if ((match = /^POST (?:\/organizations\/([A-Za-z0-9-]+))?\/settings\/apps\/new$/.exec(route))) return this.newAppPage(request, response, match[1]);
    if (route === 'POST /settings/apps/new/confirm') return this.confirmNewApp(request, response);
    if ((match = /^POST \/app-manifests\/([^/]+)\/conversions$/.exec(route))) return this.convertManifest(request, response, decodeURIComponent(match[1] as string));
    if (route === 'GET /rate_limit') return this.rateLimit(response);
    if (route === 'GET /app') return this.requireApp(caller, response, () => this.json(request, response, 200, { id: this.options.appId, slug: this.options.appSlug ?? 'local-app', name: 'Local App', client_id: this.options.clientId ?? null, owner: { login: 'owner', id: 1, type: 'User' } }));
    if (route === 'GET /app/installations') return this.requireApp(caller, response, () => this.paginated(request, response, [...this.installations.values()].map((installation) => this.installationJson(installation))));
    if ((match = /^GET \/app\/installations\/(\d+)$/.exec(route))) {
      return this.requireApp(caller, response, () => {
        const installation = this.installations.get(Number(match?.[1]));
        return installation ? this.json(request, response, 200, this.installationJson(installation)) : this.error(response, 404, 'Not Found');
      });
    }
    if ((match = /^POST \/app\/installations\/(\d+)\/access_tokens$/.exec(route))) return this.requireApp(caller, response, () => this.accessToken(Number(match?.[1]), response));
    if (route === 'GET /app/hook/deliveries') return this.requireApp(caller, response, () => this.listHookDeliveries(request, response));
    if ((match = /^POST \/app\/hook\/deliveries\/(\d+)\/attempts$/.exec(route))) return this.requireApp(caller, response, () => this.redeliver(request, response, Number(match?.[1])));
    if (caller.kind === 'app') return this.error(response, 401, 'A JSON web token could not be decoded');
    this.countRequest(caller);
    if (route === 'GET /installation/repositories') {
      if (caller.kind !== 'installation') return this.error(response, 403, 'You must authenticate with an installation access token in order to list repositories for an installation.');
      const installation = this.installations.get(caller.installationId);
      const repositories = (installation?.repositories ?? []).map((fullName) => this.repositories.get(fullName.toLowerCase())).filter((repository) => repository !== undefined);
      return this.paginated(request, response, repositories, (items, total) => ({ total_count: total, repository_selection: installation?.repositorySelection ?? 'selected', repositories: items }));
    }
    if ((match = /^GET \/users\/([^/]+)\/starred$/.exec(route))) {
      const fullNames = this.starred.get((match[1] as string).toLowerCase());
      if (!fullNames) return this.error(response, 404, 'Not Found');
      const starJson = (headerValue(request.headers, 'accept') ?? '').includes('star+json');
      const repositories = fullNames.map((fullName) => this.repositories.get(fullName.toLowerCase()) as GitHubRepository);
      return this.paginated<unknown>(request, response, starJson ? repositories.map((repo) => ({ starred_at: '2024-01-01T00:00:00Z', repo })) : repositories);
    }
    if ((match = /^(GET|POST|PATCH) \/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(route))) {
      const fullName = `${match[2]}/${match[3]}`;
      const repository = this.repositories.get(fullName.toLowerCase());
      if (!repository || !this.canSee(caller, repository)) return this.error(response, 404, 'Not Found');
      return this.repositoryRoute(request, response, caller, repository, match[4] ?? '');
    }
    return this.error(response, 404, 'Not Found');
  }

  private repositoryRoute(request: RecordedRequest, response: ServerResponse, caller: Caller, repository: GitHubRepository, rest: string): void {
    const key = repository.full_name.toLowerCase();
    let match: RegExpExecArray | null;
    if (request.method === 'GET' && rest === '') return this.json(request, response, 200, repository);
    if (request.method === 'GET' && rest === '/issues') return this.listIssues(request, response, repository);
    if (request.method === 'GET' && rest === '/releases/latest') {
      const latest = (this.releases.get(key) ?? []).find((release) => !release.draft && !release.prerelease);
      return latest ? this.json(request, response, 200, latest) : this.error(response, 404, 'Not Found');
    }
    if (request.method === 'GET' && (match = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pull = this.pulls.get(`${key}#${match[1]}`);
      if (!pull) return this.error(response, 404, 'Not Found');
      if ((headerValue(request.headers, 'accept') ?? '').includes('diff')) {
        this.countedHeaders(response);
        response.writeHead(200, { 'content-type': 'application/vnd.github.diff; charset=utf-8' });
        response.end(pull.diff);
        return;
      }
      return this.json(request, response, 200, pull.pull);
    }
    if (request.method === 'GET' && (match = /^\/actions\/runs\/(\d+)\/jobs$/.exec(rest))) {
      const jobs = (this.workflowJobs.get(`${key}/${match[1]}`) ?? []).map((job) => this.jobJson(repository, Number(match?.[1]), job));
      return this.paginated(request, response, jobs, (items, total) => ({ total_count: total, jobs: items }));
    }
    if (request.method === 'GET' && (match = /^\/actions\/jobs\/(\d+)\/logs$/.exec(rest))) {
      const job = [...this.workflowJobs.entries()].filter(([runKey]) => runKey.startsWith(`${key}/`)).flatMap(([, jobs]) => jobs).find((candidate) => candidate.id === Number(match?.[1]));
      if (!job) return this.error(response, 404, 'Not Found');
      // GitHub answers with a redirect to a short-lived blob URL that needs no token.
      response.writeHead(302, { location: `${this.url}/_stand-in/job-logs/${job.id}?repo=${encodeURIComponent(key)}` });
      response.end();
      return;
    }
    if ((match = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const issue = `${repository.full_name}#${match[1]}`;
      if (request.method === 'GET') return this.paginated(request, response, this.comments.filter((comment) => comment.issue === issue).map((comment) => this.commentJson(comment)));
      if (request.method === 'POST') {
        if (caller.kind === 'anonymous') return this.error(response, 401, 'Requires authentication');
        const body = this.bodyField(request);
        if (body === undefined) return this.error(response, 422, 'Validation Failed');
        const id = this.nextId++;
        const now = iso(new Date());
        const comment: GitHubIssueComment = {
          id,
          node_id: `IC_${id}`,
          body,
          html_url: `https://github.com/${repository.full_name}/issues/${match[1]}#issuecomment-${id}`,
          issue_url: `${this.url}/repos/${repository.full_name}/issues/${match[1]}`,
          user: { login: `${this.options.appSlug ?? 'local-app'}[bot]`, id: 9000, type: 'User' },
          created_at: now,
          updated_at: now,
          issue,
        };
        this.comments.push(comment);
        return this.json(request, response, 201, this.commentJson(comment));
      }
    }
    if (request.method === 'PATCH' && (match = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      if (caller.kind === 'anonymous') return this.error(response, 401, 'Requires authentication');
      const comment = this.comments.find((candidate) => candidate.id === Number(match?.[1]) && candidate.issue.toLowerCase().startsWith(`${key}#`));
      if (!comment) return this.error(response, 404, 'Not Found');
      const body = this.bodyField(request);
      if (body === undefined) return this.error(response, 422, 'Validation Failed');
      comment.body = body;
      comment.updated_at = iso(new Date());
      return this.json(request, response, 200, this.commentJson(comment));
    }
    return this.error(response, 404, 'Not Found');
  }

  private authenticate(request: RecordedRequest): Caller | undefined {
    const header = headerValue(request.headers, 'authorization');
    if (!header) return { kind: 'anonymous' };
    const [scheme, credential] = header.split(' ', 2) as [string, string | undefined];
    if (!credential || !/^(bearer|token)$/i.test(scheme)) return undefined;
    if (credential.split('.').length === 3) return this.verifyAppJwt(credential) ? { kind: 'app' } : undefined;
    const issued = this.issuedTokens.find((token) => token.token === credential && token.expiresAt.getTime() > Date.now());
    if (issued) return { kind: 'installation', installationId: issued.installationId };
    if (this.options.personalAccessTokens?.includes(credential)) return { kind: 'pat' };
    return undefined;
  }

  /** RS256 signature with the App's public key, `iss` = App id (or client id), a live and short `exp`. */
  verifyAppJwt(jwt: string): boolean {
    const [headerPart, payloadPart, signaturePart] = jwt.split('.') as [string, string, string];
    try {
      const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString()) as { alg?: string };
      const payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString()) as { iss?: unknown; iat?: number; exp?: number };
      if (header.alg !== 'RS256') return false;
      if (!verify('RSA-SHA256', Buffer.from(`${headerPart}.${payloadPart}`), this.publicKey, Buffer.from(signaturePart, 'base64url'))) return false;
      const issuers = [String(this.options.appId), ...(this.options.clientId ? [this.options.clientId] : [])];
      if (!issuers.includes(String(payload.iss))) return false;
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return false;
      return payload.iat <= now + 60 && payload.exp > now && payload.exp - payload.iat <= 660;
    } catch {
      return false;
    }
  }

  /**
   * GitHub's list of the App's webhook deliveries: newest first, `per_page` up to 100, paged with an
   * opaque `cursor` given in the Link header's `next` (and `prev`) relation.
   */
  private listHookDeliveries(request: RecordedRequest, response: ServerResponse): void {
    const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? 30) || 30));
    const newestFirst = [...this.hookDeliveries].reverse();
    const cursor = request.query.get('cursor');
    let start = 0;
    if (cursor) {
      const match = /^v1_(\d+)$/.exec(cursor);
      if (!match) return this.error(response, 400, 'Bad Request');
      start = newestFirst.findIndex((delivery) => delivery.id <= Number(match[1]));
      if (start === -1) start = newestFirst.length;
    }
    const page = newestFirst.slice(start, start + perPage);
    const link = (target: GitHubHookDelivery, rel: string): string => {
      const query = new URLSearchParams(request.query);
      query.set('per_page', String(perPage));
      query.set('cursor', `v1_${target.id}`);
      return `<${this.url}${request.path}?${query.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    const next = newestFirst[start + perPage];
    if (next) links.push(link(next, 'next'));
    const previous = start > 0 ? newestFirst[Math.max(0, start - perPage)] : undefined;
    if (previous) links.push(link(previous, 'prev'));
    const items = page.map(({ body: _body, ...listed }) => listed);
    this.json(request, response, 200, items, links.length > 0 ? { link: links.join(', ') } : {});
  }

  /** Accepts a redelivery (202) and attempts it right after answering, as GitHub does. */
  private redeliver(request: RecordedRequest, response: ServerResponse, id: number): void {
    const original = this.hookDeliveries.find((delivery) => delivery.id === id);
    if (!original) return this.error(response, 404, 'Not Found');
    this.redeliveryRequests.push(id);
    this.json(request, response, 202, {});
    const attempt = this.sendAppWebhook(original.event, {}, { guid: original.guid, redelivery: true, body: original.body }).catch(() => undefined);
    this.pendingRedeliveries.add(attempt);
    void attempt.finally(() => this.pendingRedeliveries.delete(attempt));
  }

  private requireApp(caller: Caller, response: ServerResponse, then: () => void): void {
    if (caller.kind !== 'app') return this.error(response, 401, 'A JSON web token could not be decoded');
    then();
  }

  private accessToken(installationId: number, response: ServerResponse): void {
    const installation = this.installations.get(installationId);
    if (!installation) return this.error(response, 404, 'Not Found');
    const token: IssuedToken = { token: `ghs_${randomBytes(18).toString('base64url')}`, installationId, expiresAt: new Date(Date.now() + 3600_000) };
    this.issuedTokens.push(token);
    sendJson(response, 201, { token: token.token, expires_at: iso(token.expiresAt), permissions: installation.permissions, repository_selection: installation.repositorySelection });
  }

  private canSee(caller: Caller, repository: GitHubRepository): boolean {
    if (!repository.private || caller.kind === 'pat') return true;
    if (caller.kind !== 'installation') return false;
    return this.installations.get(caller.installationId)?.repositories.some((fullName) => fullName.toLowerCase() === repository.full_name.toLowerCase()) ?? false;
  }

  private countRequest(caller: Caller): void {
    if (caller.kind !== 'app') this.rateUsed++;
  }

  private countedHeaders(response: ServerResponse): void {
    const limit = this.options.rateLimit ?? 5000;
    response.setHeader('x-ratelimit-limit', String(limit));
    response.setHeader('x-ratelimit-remaining', String(this.rateRemaining));
    response.setHeader('x-ratelimit-used', String(this.rateUsed));
    response.setHeader('x-ratelimit-reset', String(this.rateReset));
    response.setHeader('x-ratelimit-resource', 'core');
    response.setHeader('x-github-request-id', randomBytes(8).toString('hex').toUpperCase());
  }

  /** JSON with an ETag; a matching If-None-Match gets 304 and does not count against the rate limit. */
  private json(request: RecordedRequest, response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    const etag = `W/"${createHash('sha256').update(text).digest('hex').slice(0, 40)}"`;
    if (request.method === 'GET' && status === 200) {
      const conditional = headerValue(request.headers, 'if-none-match');
      if (conditional && conditional.split(',').map((value) => value.trim()).includes(etag)) {
        this.notModifiedCount++;
        this.rateUsed = Math.max(0, this.rateUsed - 1);
        this.countedHeaders(response);
        response.writeHead(304, { etag, ...headers });
        response.end();
        return;
      }
    }
    this.countedHeaders(response);
    sendJson(response, status, body, { etag, ...headers });
  }

  private paginated<T>(request: RecordedRequest, response: ServerResponse, items: T[], wrap?: (page: T[], total: number) => unknown): void {
    const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(request.query.get('page') ?? 1) || 1);
    const lastPage = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const link = (target: number, rel: string): string => {
      const query = new URLSearchParams(request.query);
      query.set('per_page', String(perPage));
      query.set('page', String(target));
      return `<${this.url}${request.path}?${query.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < lastPage) links.push(link(page + 1, 'next'), link(lastPage, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    this.json(request, response, 200, wrap ? wrap(slice, items.length) : slice, links.length > 0 ? { link: links.join(', ') } : {});
  }

  private rateLimit(response: ServerResponse): void {
    const limit = this.options.rateLimit ?? 5000;
    const core = { limit, used: this.rateUsed, remaining: this.rateRemaining, reset: this.rateReset, resource: 'core' };
    this.countedHeaders(response);
    sendJson(response, 200, { resources: { core, search: { limit: 30, used: 0, remaining: 30, reset: this.rateReset, resource: 'search' }, graphql: { ...core, resource: 'graphql' } }, rate: core });
  }

  /**
   * Issues and pull requests together, as GitHub lists them: `state` open (default), closed or all,
   * newest first, paginated with Link; a pull request carries a `pull_request` object.
   */
  private listIssues(request: RecordedRequest, response: ServerResponse, repository: GitHubRepository): void {
    const wanted = request.query.get('state') ?? 'open';
    if (!['open', 'closed', 'all'].includes(wanted)) return this.error(response, 422, 'Validation Failed');
    const key = repository.full_name.toLowerCase();
    const user = (login: string): Record<string, unknown> => ({ login, id: createHash('sha1').update(login).digest().readUInt32BE(0), type: 'User' });
    const items: Array<Record<string, unknown> & { number: number; state: string }> = [];
    for (const [issueKey, issue] of this.issues) {
      if (!issueKey.startsWith(`${key}#`)) continue;
      items.push({
        id: 10_000_000 + issue.number,
        node_id: `I_${issue.number}`,
        number: issue.number,
        title: issue.title,
        state: issue.state,
        body: issue.body ?? null,
        user: user(issue.user ?? 'reporter'),
        labels: (issue.labels ?? []).map((name) => ({ name })),
        html_url: `https://github.com/${repository.full_name}/issues/${issue.number}`,
        url: `${this.url}/repos/${repository.full_name}/issues/${issue.number}`,
        created_at: issue.created_at,
        updated_at: issue.updated_at,
        closed_at: issue.closed_at ?? null,
      });
    }
    for (const [pullKey, { pull }] of this.pulls) {
      if (!pullKey.startsWith(`${key}#`)) continue;
      const number = Number(pull['number']);
      items.push({
        id: pull['id'],
        node_id: `I_PR_${number}`,
        number,
        title: pull['title'],
        state: String(pull['state'] ?? 'open'),
        draft: pull['draft'] ?? false,
        body: pull['body'] ?? null,
        user: pull['user'],
        labels: [],
        html_url: `https://github.com/${repository.full_name}/pull/${number}`,
        url: `${this.url}/repos/${repository.full_name}/issues/${number}`,
        created_at: pull['created_at'] ?? '2024-01-01T00:00:00Z',
        updated_at: pull['updated_at'] ?? '2024-01-01T00:00:00Z',
        closed_at: pull['closed_at'] ?? null,
        pull_request: {
          url: `${this.url}/repos/${repository.full_name}/pulls/${number}`,
          html_url: `https://github.com/${repository.full_name}/pull/${number}`,
          diff_url: `https://github.com/${repository.full_name}/pull/${number}.diff`,
          patch_url: `https://github.com/${repository.full_name}/pull/${number}.patch`,
          merged_at: pull['merged_at'] ?? null,
        },
      });
    }
    const selected = items.filter((item) => wanted === 'all' || item.state === wanted).sort((a, b) => b.number - a.number);
    this.paginated(request, response, selected);
  }

  private jobLog(request: RecordedRequest, response: ServerResponse): void {
    const id = Number(request.path.split('/').pop());
    const job = [...this.workflowJobs.values()].flat().find((candidate) => candidate.id === id);
    if (!job) return this.error(response, 404, 'Not Found');
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(job.log ?? '');
  }

  private installationJson(installation: GitHubInstallationState): Record<string, unknown> {
    return {
      id: installation.id,
      account: installation.account,
      app_id: this.options.appId,
      app_slug: this.options.appSlug ?? 'local-app',
      target_type: installation.account.type,
      repository_selection: installation.repositorySelection,
      permissions: installation.permissions,
      events: ['issues', 'pull_request', 'workflow_run', 'release', 'star', 'watch'],
      suspended_at: null,
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
    };
  }

  private jobJson(repository: GitHubRepository, runId: number, job: GitHubWorkflowJobState): Record<string, unknown> {
    return {
      id: job.id,
      run_id: runId,
      name: job.name,
      status: job.status ?? 'completed',
      conclusion: job.conclusion === undefined ? 'failure' : job.conclusion,
      started_at: '2024-01-01T00:00:00Z',
      completed_at: '2024-01-01T00:05:00Z',
      html_url: `https://github.com/${repository.full_name}/actions/runs/${runId}/job/${job.id}`,
      steps: job.steps ?? [],
    };
  }

  private commentJson(comment: GitHubIssueComment): Record<string, unknown> {
    const { issue: _issue, ...json } = comment;
    return json;
  }

  private bodyField(request: RecordedRequest): string | undefined {
    try {
      const parsed = JSON.parse(request.bodyText) as { body?: unknown };
      return typeof parsed.body === 'string' && parsed.body.length > 0 ? parsed.body : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * GitHub's "Create GitHub App" page for a posted manifest (form field `manifest`, `?state=` in the
   * URL): it shows what will be created and a button that confirms.
   */
  private newAppPage(request: RecordedRequest, response: ServerResponse, organization: string | undefined): void {
    if (!this.options.manifestFlow) return this.error(response, 404, 'Not Found');
    const form = new URLSearchParams(request.bodyText);
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(form.get('manifest') ?? '') as Record<string, unknown>;
    } catch {
      return this.html(response, 422, '<h1>Invalid manifest</h1><p>The manifest is not JSON.</p>');
    }
    const hook = manifest['hook_attributes'] as { url?: unknown } | undefined;
    const missing = ['name', 'url', 'redirect_url'].filter((field) => typeof manifest[field] !== 'string');
    if (typeof hook?.url !== 'string') missing.push('hook_attributes.url');
    if (missing.length > 0) return this.html(response, 422, `<h1>Invalid manifest</h1><p>Missing: ${escapeHtml(missing.join(', '))}</p>`);
    const submission: GitHubManifestSubmission = { id: randomBytes(8).toString('hex'), organization, state: request.query.get('state'), manifest, converted: false };
    this.manifestSubmissions.push(submission);
    const owner = organization ?? 'octocat';
    this.html(
      response,
      200,
      `<h1>Create GitHub App for ${escapeHtml(owner)}</h1>` +
        `<dl><dt>GitHub App name</dt><dd>${escapeHtml(String(manifest['name']))}</dd>` +
        `<dt>Webhook URL</dt><dd>${escapeHtml(String(hook?.url))}</dd></dl>` +
        `<form method="post" action="/settings/apps/new/confirm"><input type="hidden" name="submission" value="${submission.id}">` +
        `<button type="submit">Create GitHub App for ${escapeHtml(owner)}</button></form>`,
    );
  }

  /** The confirm button: issues a code and sends the browser to the manifest's redirect_url. */
  private confirmNewApp(request: RecordedRequest, response: ServerResponse): void {
    const id = new URLSearchParams(request.bodyText).get('submission');
    const submission = this.manifestSubmissions.find((candidate) => candidate.id === id);
    if (!submission) return this.html(response, 404, '<h1>Not Found</h1>');
    submission.code = randomBytes(10).toString('hex');
    submission.codeIssuedAt = new Date();
    const target = new URL(String(submission.manifest['redirect_url']));
    target.searchParams.set('code', submission.code);
    if (submission.state !== null) target.searchParams.set('state', submission.state);
    response.writeHead(302, { location: target.toString() });
    response.end();
  }

  /** `POST /app-manifests/{code}/conversions`: each code once, within an hour, like GitHub. */
  private convertManifest(request: RecordedRequest, response: ServerResponse, code: string): void {
    const flow = this.options.manifestFlow;
    const submission = this.manifestSubmissions.find((candidate) => candidate.code === code);
    if (!flow || !submission || submission.converted || Date.now() - (submission.codeIssuedAt?.getTime() ?? 0) > 3600_000) {
      return this.error(response, 404, 'Not Found');
    }
    submission.converted = true;
    const slug = this.options.appSlug ?? 'local-app';
    const owner = submission.organization
      ? { login: submission.organization, id: this.nextId++, type: 'Organization' }
      : { login: 'octocat', id: 1, type: 'User' };
    this.json(request, response, 201, {
      id: this.options.appId,
      slug,
      node_id: `A_${this.options.appId}`,
      owner,
      name: submission.manifest['name'],
      description: submission.manifest['description'] ?? null,
      external_url: submission.manifest['url'],
      html_url: `https://github.com/apps/${slug}`,
      created_at: iso(new Date()),
      updated_at: iso(new Date()),
      permissions: submission.manifest['default_permissions'] ?? {},
      events: submission.manifest['default_events'] ?? [],
      client_id: this.options.clientId ?? 'Iv1.localclientid',
      client_secret: flow.clientSecret ?? 'local-client-secret-0123456789abcdef',
      webhook_secret: flow.webhookSecret ?? 'local-webhook-secret-0123456789',
      pem: flow.privateKey,
    });
  }

  private html(response: ServerResponse, status: number, body: string): void {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GitHub (local stand-in)</title></head><body><main>${body}</main></body></html>`);
  }

  private error(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    this.countedHeaders(response);
    sendJson(response, status, { message, documentation_url: DOCS, status: String(status) }, headers);
  }

  private safeUrl(): string {
    try {
      return this.url;
    } catch {
      return 'http://127.0.0.1';
    }
  }
}
