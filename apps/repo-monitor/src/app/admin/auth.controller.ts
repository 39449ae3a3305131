import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '@shared/http-service';
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { COOKIE_SCHEME, CSRF_SCHEME, SESSION_COOKIE } from '../openapi';
import { AdminAccountService } from './admin-account.service';
import { AuditLogService } from './audit-log.service';
import {
  ChangePasswordRequestDto,
  LoginRequestDto,
  LoginResultDto,
  SessionInfoDto,
  TotpConfirmDto,
  TotpSetupDto,
  TotpStatusDto,
} from './dto/credentials.dto';
import { AdminAccountEntity } from './admin-account.entity';
import { issueKnownDeviceToken, knownDeviceCookie, knownDeviceId, setKnownDeviceCookie } from './known-device';
import { AttemptSource, LoginThrottle } from './login-throttle';
import { CurrentAdmin, Principal, clientAddress } from './principal';
import { SECURE_SESSION_COOKIE, clearSessionCookies, sessionCookieValue, setSessionCookie } from './session-cookie';
import { SessionService } from './session.service';

type AdminPrincipal = Extract<Principal, { kind: 'admin' }>;

/** Console sign-in: an HttpOnly session cookie plus a CSRF token for writes. */
@ApiTags('auth')
@Controller('api/v1/auth')
export class AuthController {
  constructor(
    private readonly accounts: AdminAccountService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottle,
    private readonly audit: AuditLogService,
    private readonly githubSettings: GithubAppSharedSettings,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in',
    description:
      `Sets the HttpOnly session cookie (SameSite=Lax): \`${SECURE_SESSION_COOKIE}\` with Secure when the request arrived over https ` +
      `(TLS, X-Forwarded-Proto from a trusted proxy, or an https public base URL), else \`${SESSION_COOKIE}\`. ` +
      'Returns the csrf_token to send as X-CSRF-Token on writes. Only application/json bodies; cross-site requests are 403.',
  })
  @ApiOkResponse({ type: LoginResultDto })
  @ApiUnauthorizedResponse({
    description:
      'invalid_credentials: wrong user name or password; or, when the second factor is on, totp_code missing or wrong ' +
      '(then details.totp_required is true: ask for the code and send it with the same user name and password)',
  })
  @ApiTooManyRequestsResponse({
    description: 'rate_limited, with Retry-After: too many failures from this client (IPv6: its /64), or guesses at the account come too fast (a browser that signed in before is exempt)',
  })
  async login(
    @Body() body: LoginRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResultDto> {
    const client = clientAddress(request);
    const admin = await this.accounts.find();
    const source: AttemptSource = {
      client,
      // Only the real account is slowed: a guess at another name cannot succeed anyway.
      account: admin && admin.username === body.username ? admin.username : undefined,
      knownDevice: admin ? await this.knownDevice(request, admin) : undefined,
    };
    // The slot is reserved before the (slow) password check, so a parallel burst cannot outrun the limit.
    const attempt = this.throttle.begin(source);
    let account: Awaited<ReturnType<AdminAccountService['verify']>>;
    let totpProblem: 'totp_missing' | 'totp_wrong' | undefined;
    try {
      account = await this.accounts.verify(body.username, body.password);
      if (account?.totpEnabled) {
        if (!body.totp_code) totpProblem = 'totp_missing';
        else if (!this.accounts.totpCodeMatches(account, body.totp_code)) totpProblem = 'totp_wrong';
      }
      // A missing code counts as a failure too: the answer tells that the password was right.
      if (account && !totpProblem) attempt.succeeded();
      else attempt.failed();
    } finally {
      attempt.release();
    }
    if (!account) {
      await this.audit.record({ actor: body.username, action: 'auth.login_failed', clientIp: client });
      throw new MonitorError('invalid_credentials', 'wrong user name or password');
    }
    if (totpProblem) {
      await this.audit.record({ actor: body.username, action: 'auth.login_failed', details: { reason: totpProblem }, clientIp: client });
      throw new MonitorError(
        'invalid_credentials',
        totpProblem === 'totp_missing' ? 'enter the code of your authenticator app' : 'the code is wrong or was already used',
        { totp_required: true },
      );
    }
    const session = await this.sessions.issue(client, request.headers['user-agent']);
    await this.audit.record({ actor: account.username, action: 'auth.login', clientIp: client });
    const secure = request.protocol === 'https' || (await this.githubSettings.publicBaseUrlIsHttps());
    setSessionCookie(reply, session.token, secure, Math.floor(this.sessions.ttlMs / 1000));
    setKnownDeviceCookie(reply, issueKnownDeviceToken(account.passwordHash, account.username), secure);
    return { username: account.username, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Sign out: ends this session and clears the cookie' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: 'csrf_failed' })
  async logout(
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.revoke(admin.sessionId);
    await this.audit.record({ actor: admin.username, action: 'auth.logout', clientIp: clientAddress(request) });
    clearSessionCookies(reply);
  }

  @Get('session')
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiOperation({ summary: 'The current session' })
  @ApiOkResponse({ type: SessionInfoDto })
  async session(@CurrentAdmin() admin: AdminPrincipal): Promise<SessionInfoDto> {
    const session = await this.sessions.current(admin.sessionId);
    const { totp_enabled } = await this.accounts.totpStatus();
    return { username: admin.username, totp_enabled, created_at: session.createdAt.toISOString(), expires_at: session.expiresAt.toISOString() };
  }

  @Get('totp')
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiOperation({ summary: 'Whether the second factor (TOTP) is on, or set up and waiting to be turned on' })
  @ApiOkResponse({ type: TotpStatusDto })
  totpStatus(@CurrentAdmin() _admin: AdminPrincipal): Promise<TotpStatusDto> {
    return this.accounts.totpStatus();
  }

  @Post('totp/setup')
  @HttpCode(200)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Create a TOTP secret for an authenticator app (not in force until turned on with a code)',
    description: 'Answers the secret and its otpauth:// URI once; a later setup replaces a secret not yet turned on. Needs MONITOR_ENCRYPTION_KEY.',
  })
  @ApiOkResponse({ type: TotpSetupDto })
  @ApiErrorResponses({ 409: 'conflict: the second factor is already on', 503: 'encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set' })
  async setupTotp(@CurrentAdmin() _admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<TotpSetupDto> {
    return this.accounts.setupTotp(clientAddress(request));
  }

  @Post('totp/enable')
  @HttpCode(200)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Turn the second factor on with the current password and a code; every other session is signed out' })
  @ApiOkResponse({ type: TotpStatusDto })
  @ApiErrorResponses({
    400: 'validation_failed: the code is wrong or was already used',
    409: 'conflict: already on, or not set up',
    429: 'rate_limited: too many wrong passwords or codes from this session',
  })
  @ApiUnauthorizedResponse({ description: 'invalid_credentials: the current password is wrong' })
  async enableTotp(@CurrentAdmin() admin: AdminPrincipal, @Body() body: TotpConfirmDto, @Req() request: FastifyRequest): Promise<TotpStatusDto> {
    const client = clientAddress(request);
    const attempt = this.throttle.begin({ client, knownDevice: `session:${admin.sessionId}` });
    try {
      await this.accounts.enableTotp(body.current_password, body.code, admin.sessionId, client, attempt);
    } finally {
      attempt.release();
    }
    return this.accounts.totpStatus();
  }

  @Post('totp/disable')
  @HttpCode(200)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Turn the second factor off with the current password and a current code' })
  @ApiOkResponse({ type: TotpStatusDto })
  @ApiErrorResponses({
    400: 'validation_failed: the code is wrong or was already used',
    409: 'conflict: the second factor is not on',
    429: 'rate_limited: too many wrong passwords or codes from this session',
  })
  @ApiUnauthorizedResponse({ description: 'invalid_credentials: the current password is wrong' })
  async disableTotp(@CurrentAdmin() admin: AdminPrincipal, @Body() body: TotpConfirmDto, @Req() request: FastifyRequest): Promise<TotpStatusDto> {
    const client = clientAddress(request);
    const attempt = this.throttle.begin({ client, knownDevice: `session:${admin.sessionId}` });
    try {
      await this.accounts.disableTotp(body.current_password, body.code, client, attempt);
    } finally {
      attempt.release();
    }
    return this.accounts.totpStatus();
  }

  @Post('password')
  @HttpCode(204)
  @ApiCookieAuth(COOKIE_SCHEME)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change the admin password; every other session is signed out' })
  @ApiNoContentResponse()
  @ApiUnauthorizedResponse({ description: 'invalid_credentials: the current password is wrong' })
  @ApiTooManyRequestsResponse({ description: 'rate_limited, with Retry-After: too many wrong current passwords from this client' })
  async changePassword(
    @CurrentAdmin() admin: AdminPrincipal,
    @Body() body: ChangePasswordRequestDto,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    const client = clientAddress(request);
    // A budget per session, like a known device at sign-in: a stolen session must not become a
    // password oracle, and failures elsewhere do not stop the owner.
    const attempt = this.throttle.begin({ client, knownDevice: `session:${admin.sessionId}` });
    try {
      await this.accounts.changePassword(body.current_password, body.new_password, admin.sessionId, client, attempt);
    } finally {
      attempt.release();
    }
  }

  /**
   * Which known browser the sign-in comes from: a valid known-device cookie (set at every
   * successful sign-in, void once the password changes) or a live session. Such a sign-in is never
   * blocked by failures from other browsers.
   */
  private async knownDevice(request: FastifyRequest, admin: AdminAccountEntity): Promise<string | undefined> {
    const device = knownDeviceId(knownDeviceCookie(request), admin.passwordHash, admin.username);
    if (device) return `device:${device}`;
    const sessionToken = sessionCookieValue(request);
    const session = sessionToken ? await this.sessions.resolve(sessionToken) : null;
    return session ? `session:${session.id}` : undefined;
  }
}
