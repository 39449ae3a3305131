import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { assertAccountName } from './account-name';
import { AccountsService } from './accounts.service';
import { AccountDto, AccountListDto, accountView, ImportSessionDto, UpdateAccountDto } from './dto/account.dto';

@ApiTags('accounts')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({ summary: 'List accounts with status, needs_relogin, remark, proxy and last check (cached up to 5 s)' })
  @ApiOkResponse({ type: AccountListDto })
  async list(): Promise<AccountListDto> {
    await this.accounts.fresh();
    const accounts = this.accounts.list().map(accountView);
    return { accounts, total: accounts.length };
  }

  @Post('import-session')
  @ApiOperation({
    summary: 'Store an existing GramJS string session as an account',
    description: 'Telegram is not contacted; the status stays null until the next status check.',
  })
  @ApiCreatedResponse({ type: AccountDto })
  @ApiBadRequestResponse({ description: 'Invalid account name, session string or proxy' })
  @ApiConflictResponse({ description: 'The account exists and overwrite is not true' })
  async importSession(@Body() body: ImportSessionDto): Promise<AccountDto> {
    return accountView(await this.accounts.importSession(body));
  }

  @Get(':account_name')
  @ApiOperation({ summary: 'One account' })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiOkResponse({ type: AccountDto })
  @ApiBadRequestResponse({ description: 'The name is not path-safe' })
  @ApiNotFoundResponse({ description: 'No such account' })
  async get(@Param('account_name') name: string): Promise<AccountDto> {
    assertAccountName(name);
    await this.accounts.fresh();
    return accountView(this.accounts.get(name));
  }

  @Patch(':account_name')
  @ApiOperation({ summary: 'Change the remark or the proxy of an account' })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiOkResponse({ type: AccountDto })
  @ApiBadRequestResponse({ description: 'Invalid name, remark or proxy' })
  @ApiNotFoundResponse({ description: 'No such account' })
  async update(@Param('account_name') name: string, @Body() body: UpdateAccountDto): Promise<AccountDto> {
    assertAccountName(name);
    await this.accounts.fresh();
    return accountView(await this.accounts.update(name, body));
  }

  @Delete(':account_name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an account: stops its listeners, closes its connection, removes its session files' })
  @ApiParam({ name: 'account_name', example: 'main' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiBadRequestResponse({ description: 'The name is not path-safe' })
  @ApiNotFoundResponse({ description: 'No such account' })
  async remove(@Param('account_name') name: string): Promise<void> {
    await this.accounts.remove(assertAccountName(name));
  }
}
