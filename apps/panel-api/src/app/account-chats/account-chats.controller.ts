import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiGatewayTimeoutResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { assertAccountName } from '../accounts/account-name';
import { BEARER_SCHEME } from '../openapi';
import { AccountChatsService, DIALOG_SCAN_LIMIT } from './account-chats.service';
import { AccountChatListDto, AccountChatsQueryDto } from './dto/account-chat.dto';

@ApiTags('accounts')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiParam({ name: 'account_name', example: 'main' })
@Controller('api/accounts/:account_name')
export class AccountChatsController {
  constructor(private readonly chats: AccountChatsService) {}

  @Get('chats')
  @ApiOperation({
    summary: "The account's chats for the task editor's picker",
    description: `Read-only, from the account's ${DIALOG_SCAN_LIMIT} most recent Telegram dialogs (newest first); q filters them by title, username or id. Answered by the account's owner replica.`,
  })
  @ApiOkResponse({ type: AccountChatListDto })
  @ApiBadRequestResponse({ description: 'Invalid account name, q longer than 64 characters, or limit outside 1..100' })
  @ApiNotFoundResponse({ description: 'No such account' })
  @ApiConflictResponse({ description: 'The account needs_relogin (its session is invalid or missing)' })
  @ApiBadGatewayResponse({ description: 'Telegram could not be reached' })
  @ApiGatewayTimeoutResponse({ description: 'Telegram did not answer in time' })
  async list(@Param('account_name') name: string, @Query() query: AccountChatsQueryDto): Promise<AccountChatListDto> {
    return this.chats.list(assertAccountName(name), query);
  }
}
