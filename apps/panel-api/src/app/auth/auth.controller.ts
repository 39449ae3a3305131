import { Body, Controller, Get, HttpCode, HttpStatus, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/public.decorator';
import { BEARER_SCHEME } from '../openapi';
import type { AuthenticatedAdmin, IssuedToken } from './access-token.service';
import { extractAccessToken } from './access-token.guard';
import { AuthService } from './auth.service';
import { knownDeviceCookie, setKnownDeviceCookie } from './known-device-cookie';
import { CurrentAdmin } from './current-admin.decorator';
import {
  AccessTokenDto,
  ChangePasswordDto,
  ChangeUsernameDto,
  LoginDto,
  MeDto,
  TotpCodeDto,
  TotpEnableDto,
  TotpEnabledDto,
  TotpSetupDto,
  TotpSetupRequestDto,
  TotpStatusDto,
} from './dto/auth.dto';
import { BodyLimit, CREDENTIAL_BODY_LIMITS } from '../common/request-limits';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('login')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Log in and get an access token',
    description:
      '5 failed attempts within 300 s block the client address for 900 s (429 with Retry-After), even for the right password. ' +
      'Guesses at the account from any address are slowed too: after 5 failures each further one waits longer (up to 60 s), ' +
      'and after 2 wrong TOTP codes with the right password much longer (up to 15 min). A browser that logged in before ' +
      '(the HttpOnly known-device cookie this answer sets) or that sends a live token of the same admin is exempt from the account delay.',
  })
  @ApiOkResponse({ type: AccessTokenDto })
  @ApiUnauthorizedResponse({ description: 'Wrong username, password or TOTP code, or TOTP code missing' })
  @ApiTooManyRequestsResponse({ description: 'Too many failed logins from this address, or guesses at the account come too fast; see Retry-After' })
  @ApiBadRequestResponse({ description: 'Malformed body' })
  async login(@Body() body: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<IssuedToken> {
    const { knownDeviceToken, ...issued } = await this.auth.login(body, {
      client: request.ip,
      knownDeviceToken: knownDeviceCookie(request),
      accessToken: extractAccessToken({ method: request.method, url: request.url, headers: request.headers }),
    });
    setKnownDeviceCookie(reply, knownDeviceToken, request.protocol === 'https');
    return issued;
  }

  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @ApiOperation({ summary: 'Log out: this access token stops working at once (other sessions stay)' })
  @ApiNoContentResponse({ description: 'The token is revoked' })
  async logout(@CurrentAdmin() admin: AuthenticatedAdmin): Promise<void> {
    await this.auth.logout(admin);
  }

  @Get('me')
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @ApiOperation({ summary: 'The logged-in admin' })
  @ApiOkResponse({ type: MeDto })
  me(@CurrentAdmin() admin: AuthenticatedAdmin): Promise<MeDto> {
    return this.auth.me(admin);
  }

  @Put('password')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @ApiOperation({ summary: 'Change the password; earlier tokens stop working, the answer carries a new one' })
  @ApiOkResponse({ type: AccessTokenDto })
  @ApiBadRequestResponse({ description: 'Invalid new password' })
  @ApiForbiddenResponse({ description: 'current_password is wrong' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords or codes for this account; see Retry-After' })
  changePassword(@CurrentAdmin() admin: AuthenticatedAdmin, @Body() body: ChangePasswordDto): Promise<IssuedToken> {
    return this.auth.changePassword(admin, body);
  }

  @Put('username')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @ApiOperation({ summary: 'Change the username; earlier tokens stop working, the answer carries a new one' })
  @ApiOkResponse({ type: AccessTokenDto })
  @ApiBadRequestResponse({ description: 'Invalid new username' })
  @ApiForbiddenResponse({ description: 'current_password is wrong' })
  @ApiConflictResponse({ description: 'Username taken' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords or codes for this account; see Retry-After' })
  changeUsername(@CurrentAdmin() admin: AuthenticatedAdmin, @Body() body: ChangeUsernameDto): Promise<IssuedToken> {
    return this.auth.changeUsername(admin, body);
  }

  @Post('totp/setup')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Create a TOTP secret (pending until enabled); returns it, its otpauth URI and a QR code',
    description: 'Needs the current password. Wrong passwords count towards the per-account limit (429 with Retry-After).',
  })
  @ApiOkResponse({ type: TotpSetupDto })
  @ApiBadRequestResponse({ description: 'Malformed body' })
  @ApiForbiddenResponse({ description: 'current_password is wrong' })
  @ApiConflictResponse({ description: 'TOTP is already enabled' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords or codes for this account; see Retry-After' })
  setupTotp(@CurrentAdmin() admin: AuthenticatedAdmin, @Body() body: TotpSetupRequestDto): Promise<TotpSetupDto> {
    return this.auth.setupTotp(admin, body.current_password);
  }

  @Post('totp/enable')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Enable TOTP with the current password and a code from the authenticator app',
    description:
      'Every other session is signed out (earlier tokens stop working); the answer carries a fresh token for the caller. ' +
      'Wrong passwords and codes count towards the per-account limit (429 with Retry-After).',
  })
  @ApiOkResponse({ type: TotpEnabledDto })
  @ApiBadRequestResponse({ description: 'Malformed, wrong or already used code' })
  @ApiForbiddenResponse({ description: 'current_password is wrong' })
  @ApiConflictResponse({ description: 'Already enabled, or no pending secret' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords or codes for this account; see Retry-After' })
  enableTotp(@CurrentAdmin() admin: AuthenticatedAdmin, @Body() body: TotpEnableDto): Promise<TotpEnabledDto> {
    return this.auth.enableTotp(admin, body.code, body.current_password);
  }

  @Post('totp/disable')
  @BodyLimit(CREDENTIAL_BODY_LIMITS)
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Disable TOTP with a current code',
    description: 'Wrong codes count towards the per-account limit, as failed logins do per address (429 with Retry-After).',
  })
  @ApiOkResponse({ type: TotpStatusDto })
  @ApiBadRequestResponse({ description: 'Malformed, wrong or already used code' })
  @ApiConflictResponse({ description: 'TOTP is not enabled' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong passwords or codes for this account; see Retry-After' })
  async disableTotp(@CurrentAdmin() admin: AuthenticatedAdmin, @Body() body: TotpCodeDto): Promise<TotpStatusDto> {
    await this.auth.disableTotp(admin, body.code);
    return { totp_enabled: false };
  }
}
