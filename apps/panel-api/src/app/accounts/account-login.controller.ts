import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { assertAccountName } from './account-name';
import { AccountLoginService, QrLoginOutcome } from './account-login.service';
import { accountView } from './dto/account.dto';
import {
  LoginStartDto,
  LoginStartResultDto,
  LoginVerifyDto,
  LoginVerifyResultDto,
  QrLoginPasswordDto,
  QrLoginStartDto,
  QrLoginStatusDto,
} from './dto/login.dto';
import { ValidationFailed } from '../common/panel-error';

function qrView(outcome: QrLoginOutcome): QrLoginStatusDto {
  const { status } = outcome;
  return {
    login_id: outcome.loginId,
    account_name: outcome.accountName,
    state: status.state,
    qr_url: status.state === 'waiting_scan' ? status.qrUrl : undefined,
    expires_at: status.state === 'waiting_scan' && status.expiresAt ? new Date(status.expiresAt * 1000).toISOString() : undefined,
    password_hint: status.passwordHint,
    error: status.error,
    account: outcome.account ? accountView(outcome.account) : undefined,
  };
}

function assertLoginId(value: string): string {
  if (!/^[A-Za-z0-9_-]{8,128}$/.test(value)) throw new ValidationFailed('login_id is not a login id');
  return value;
}

@ApiTags('accounts')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiTooManyRequestsResponse({ description: 'Telegram asks to wait (Retry-After header)' })
@Controller('api/accounts')
export class AccountLoginController {
  constructor(private readonly logins: AccountLoginService) {}

  @Post('login/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a phone login: Telegram sends a code (in the app, by SMS or call)' })
  @ApiOkResponse({ type: LoginStartResultDto })
  @ApiBadRequestResponse({ description: 'Invalid account name, phone number or proxy, or Telegram refused the number' })
  async start(@Body() body: LoginStartDto): Promise<LoginStartResultDto> {
    const started = await this.logins.startPhoneLogin(body.account_name, body.phone_number, body.proxy);
    return { account_name: body.account_name, status: 'code_sent', code_type: started.codeType };
  }

  @Post('login/verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish a phone login with the code (and the 2FA password)',
    description: 'Answers status password_required when the account has a 2FA password: call again with password. Success stores the session and clears needs_relogin.',
  })
  @ApiOkResponse({ type: LoginVerifyResultDto })
  @ApiBadRequestResponse({ description: 'Wrong or expired code, or wrong password' })
  @ApiNotFoundResponse({ description: 'No login was started for this account' })
  async verify(@Body() body: LoginVerifyDto): Promise<LoginVerifyResultDto> {
    const outcome = await this.logins.verifyPhoneLogin(body.account_name, body.phone_code, body.password);
    if (outcome.status === 'password_required') {
      return { status: 'password_required', account_name: body.account_name, password_hint: outcome.hint };
    }
    return { status: 'success', account_name: body.account_name, account: accountView(outcome.account) };
  }

  @Delete('login/:account_name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel a started phone login: forget it and close its connection (an account it would log in again stays as it was)' })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiNoContentResponse({ description: 'Forgotten' })
  @ApiBadRequestResponse({ description: 'The name is not path-safe' })
  @ApiNotFoundResponse({ description: 'No login in progress for this account' })
  async cancelPhone(@Param('account_name') name: string): Promise<void> {
    await this.logins.cancelPhoneLogin(assertAccountName(name));
  }

  @Post('qr-login/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a QR login; show qr_url as a QR code and poll GET qr-login/{login_id}' })
  @ApiOkResponse({ type: QrLoginStatusDto })
  @ApiBadRequestResponse({ description: 'Invalid account name or proxy' })
  async startQr(@Body() body: QrLoginStartDto): Promise<QrLoginStatusDto> {
    return qrView(await this.logins.startQrLogin(body.account_name, body.proxy));
  }

  @Get('qr-login/:login_id')
  @ApiOperation({
    summary: 'State of a QR login',
    description: 'waiting_scan | scanned_wait_confirm | password_required | success | expired | failed. Success stores the session and clears needs_relogin.',
  })
  @ApiOkResponse({ type: QrLoginStatusDto })
  @ApiNotFoundResponse({ description: 'Unknown or forgotten login id' })
  async qrStatus(@Param('login_id') loginId: string): Promise<QrLoginStatusDto> {
    return qrView(await this.logins.qrLoginStatus(assertLoginId(loginId)));
  }

  @Post('qr-login/:login_id/password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send the 2FA password of a QR login in state password_required' })
  @ApiOkResponse({ type: QrLoginStatusDto })
  @ApiBadRequestResponse({ description: 'Wrong password, or the login does not wait for one' })
  @ApiNotFoundResponse({ description: 'Unknown or forgotten login id' })
  async qrPassword(@Param('login_id') loginId: string, @Body() body: QrLoginPasswordDto): Promise<QrLoginStatusDto> {
    return qrView(await this.logins.submitQrPassword(assertLoginId(loginId), body.password));
  }

  @Delete('qr-login/:login_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Cancel a QR login: forget it and close its connection',
    description: 'For a closed dialog, or a code replaced by a fresh one before it expires. An account already stored by a finished login stays.',
  })
  @ApiNoContentResponse({ description: 'Forgotten' })
  @ApiBadRequestResponse({ description: 'login_id is not a login id' })
  @ApiNotFoundResponse({ description: 'Unknown or forgotten login id' })
  async cancelQr(@Param('login_id') loginId: string): Promise<void> {
    await this.logins.cancelQrLogin(assertLoginId(loginId));
  }
}
