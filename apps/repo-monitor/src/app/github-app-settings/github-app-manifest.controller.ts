import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminAccountService } from '../admin/admin-account.service';
import { AuditLogService } from '../admin/audit-log.service';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { sessionCookieValue } from '../admin/session-cookie';
import { SessionService } from '../admin/session.service';
import { Public } from '../common/public.decorator';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { ManifestFlowStartDto, StartManifestFlowDto } from './dto/github-app-settings.dto';
import { GithubAppManifestService, ManifestFlowFailure } from './github-app-manifest.service';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';

/** The console page GitHub's return lands on, with `?manifest=created` or `?manifest=error&reason=`. */
export const CONSOLE_GITHUB_APP_PATH = '/github-app';

const CODE_RULE = /^[A-Za-z0-9_-]{1,128}$/;
const STATE_RULE = /^[A-Za-z0-9_-]{1,128}$/;

@ApiTags('github-app')
@Controller('api/v1/github/app/manifest')
export class GithubAppManifestController {
  constructor(
    private readonly manifests: GithubAppManifestService,
    private readonly settings: GithubAppSharedSettings,
    private readonly sessions: SessionService,
    private readonly accounts: AdminAccountService,
    private readonly audit: AuditLogService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Start creating the GitHub App in one click (GitHub App manifest flow)',
    description:
      'Answers the manifest for this service and the GitHub URL to POST it to (a form with one field, `manifest`, as a top-level navigation). ' +
      `GitHub sends the browser back to GET /api/v1/github/app/manifest/callback, which stores the App and redirects to ${CONSOLE_GITHUB_APP_PATH}. ` +
      'The state is single-use, bound to this session and expires after 15 minutes; a new start replaces an unfinished one.',
  })
  @ApiOkResponse({ type: ManifestFlowStartDto })
  @ApiErrorResponses({
    409: 'github_field_locked (details.fields): the environment sets the App id, client id, private key or webhook secret; conflict: no public base URL is set',
    503: 'encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set',
  })
  start(@Body() body: StartManifestFlowDto, @CurrentAdmin() admin: Extract<Principal, { kind: 'admin' }>): Promise<ManifestFlowStartDto> {
    return this.manifests.start(body, admin.sessionId);
  }

  @Public()
  @Get('callback')
  // The session cookie is read by the handler, not the guard: without it the answer is a redirect too.
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity({})
  @ApiOperation({
    summary: 'Where GitHub sends the browser back after the App was created',
    description:
      'Needs the admin session that started the flow (the cookie comes along with GitHub\u2019s redirect) and its state. Exchanges the code ' +
      `with POST {api}/app-manifests/{code}/conversions, stores the App, and redirects (303) to ${CONSOLE_GITHUB_APP_PATH}?manifest=created&app_slug=… ` +
      '(on the public base URL; a relative redirect when none is set, never one built from the Host header), ' +
      `or to ${CONSOLE_GITHUB_APP_PATH}?manifest=error&reason=… (invalid_request, session_required, invalid_state, state_expired, fields_locked, ` +
      'encryption_unavailable, code_refused, github_unreachable, unexpected_answer, invalid_key). Every outcome is a redirect, never a JSON body.',
  })
  @ApiQuery({ name: 'code', required: true, description: 'The temporary code from GitHub' })
  @ApiQuery({ name: 'state', required: true, description: 'The state from the start' })
  @ApiResponse({ status: 303, description: `Redirect to the console\u2019s ${CONSOLE_GITHUB_APP_PATH} page with the outcome` })
  async callback(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // The configured public base URL only, never the Host header: without one (removed while the flow
    // ran) the redirect is relative, and the browser stays on the origin it called back to.
    const base = (await this.settings.publicBaseUrl()) ?? '';
    const go = (params: Record<string, string>) => reply.redirect(`${base}${CONSOLE_GITHUB_APP_PATH}?${new URLSearchParams(params).toString()}`, 303);
    const client = clientAddress(request);
    const code = typeof query['code'] === 'string' ? query['code'] : '';
    const state = typeof query['state'] === 'string' ? query['state'] : '';
    if (!CODE_RULE.test(code) || !STATE_RULE.test(state)) return go({ manifest: 'error', reason: 'invalid_request' });

    const cookie = sessionCookieValue(request);
    const session = cookie ? await this.sessions.resolve(cookie) : null;
    const account = session ? await this.accounts.find() : null;
    if (!session || !account) return go({ manifest: 'error', reason: 'session_required' });

    try {
      const slug = await this.manifests.complete(code, state, session.id, account.username, client);
      return go({ manifest: 'created', app_slug: slug });
    } catch (error) {
      if (!(error instanceof ManifestFlowFailure)) throw error;
      await this.audit.record({ actor: account.username, action: 'github_app.manifest_failed', details: { reason: error.reason }, clientIp: client });
      return go({ manifest: 'error', reason: error.reason });
    }
  }
}
