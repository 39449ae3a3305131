import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { assertAccountName } from '../accounts/account-name';
import { AccountStore } from '../accounts/account-store';
import { AccountNotFound } from '../common/panel-error';
import { BEARER_SCHEME } from '../openapi';
import { AccountGovernor } from '../governor/account-governor';
import { AccountSafetyDto } from './dto/account-safety.dto';

@ApiTags('accounts')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiBadRequestResponse({ description: 'The name is not path-safe' })
@ApiNotFoundResponse({ description: 'No such account' })
@Controller('api/accounts')
export class SafetyController {
  constructor(
    private readonly accounts: AccountStore,
    private readonly governor: AccountGovernor,
  ) {}

  @Get(':account_name/safety')
  @ApiOperation({ summary: "The account's safety budget: actions this minute and today against the limits, FloodWaits, paused or not" })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiOkResponse({ type: AccountSafetyDto })
  async safety(@Param('account_name') name: string): Promise<AccountSafetyDto> {
    assertAccountName(name);
    await this.requireAccount(name);
    return this.governor.state(name);
  }

  @Post(':account_name/safety/resume')
  @HttpCode(200)
  @ApiOperation({ summary: "Resume the account's automation after a pause (a FloodWait still in force keeps holding actions back until it passes)" })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiOkResponse({ type: AccountSafetyDto })
  async resume(@Param('account_name') name: string): Promise<AccountSafetyDto> {
    assertAccountName(name);
    await this.requireAccount(name);
    return this.governor.resume(name);
  }

  private async requireAccount(name: string): Promise<void> {
    await this.accounts.refresh();
    if (!this.accounts.get(name)) throw new AccountNotFound(name);
  }
}
