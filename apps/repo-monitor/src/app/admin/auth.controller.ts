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
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { COOKIE_SCHEME, CSRF_SCHEME, SESSION_COOKIE } from '../openapi';
import { AdminAccountService } from './admin-account.service';
import { AdminSessionEntity } from './admin-session.entity';
import { AuditLogService } from './audit-log.service';
import { ChangePasswordRequestDto, LoginRequestDto, LoginResultDto, SessionInfoDto } from './dto/credentials.dto';
import { AdminAccountEntity } from './admin-account.entity';
import { issueKnownDeviceToken, knownDeviceCookie, knownDeviceId, setKnownDeviceCookie } from './known-device';
import { AttemptSource, LoginThrottle } from './login-throttle';
import { CurrentAdmin, Principal, clientAddress } from './principal';
import { SECURE_SESSION_COOKIE, clearSessionCookies, sessionCookieValue, setSessionCookie } from './session-cookie';
import { SessionService } from './session.service';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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
    private readonly githubSettings: GithubAppSettingsService,
    @InjectDataSource() private readonly dataSource: DataSource,
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
  @ApiUnauthorizedResponse({ description: 'invalid_credentials' })
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
    try {
      account = await this.accounts.verify(body.username, body.password);
      if (account) attempt.succeeded();
      else attempt.failed();
    } finally {
      attempt.release();
    }
    if (!account) {
      await this.audit.record({ actor: body.username, action: 'auth.login_failed', clientIp: client });
      throw new MonitorError('invalid_credentials', 'wrong user name or password');
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
    const session = await this.dataSource.manager.findOneOrFail(AdminSessionEntity, { where: { id: admin.sessionId } });
    return { username: admin.username, created_at: session.createdAt.toISOString(), expires_at: session.expiresAt.toISOString() };
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
