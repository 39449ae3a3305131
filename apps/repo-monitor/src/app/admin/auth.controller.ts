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
import { LoginThrottle } from './login-throttle';
import { CurrentAdmin, Principal, clientAddress } from './principal';
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
    description: `Sets the HttpOnly ${SESSION_COOKIE} cookie (SameSite=Lax, Secure when the public base URL is https) and returns the csrf_token to send as X-CSRF-Token on writes.`,
  })
  @ApiOkResponse({ type: LoginResultDto })
  @ApiUnauthorizedResponse({ description: 'invalid_credentials' })
  @ApiTooManyRequestsResponse({ description: 'rate_limited, with Retry-After' })
  async login(
    @Body() body: LoginRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResultDto> {
    const client = clientAddress(request);
    // The slot is reserved before the (slow) password check, so a parallel burst cannot outrun the limit.
    const attempt = this.throttle.begin(client);
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
    const secure = (await this.githubSettings.publicBaseUrl())?.startsWith('https://') ?? false;
    void reply.setCookie(SESSION_COOKIE, session.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: Math.floor(this.sessions.ttlMs / 1000),
    });
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
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
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
    // The same per-client budget as sign-in: a stolen session must not become a password oracle.
    const attempt = this.throttle.begin(client);
    try {
      await this.accounts.changePassword(body.current_password, body.new_password, admin.sessionId, client, attempt);
    } finally {
      attempt.release();
    }
  }
}
