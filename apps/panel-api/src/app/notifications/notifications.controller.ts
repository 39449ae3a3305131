import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { BotTestResultDto } from './dto/bot-test.dto';
import { PanelNotifier } from './panel-notifier.service';
import { PanelError } from '../common/panel-error';

@ApiTags('notifications')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config/bot')
export class NotificationsController {
  constructor(private readonly notifier: PanelNotifier) {}

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test message with the saved bot settings and report the Bot API answer',
    description: 'Sent whatever the notification switches say. A refusal by Telegram answers 200 with ok=false and its description.',
  })
  @ApiOkResponse({ type: BotTestResultDto })
  @ApiBadRequestResponse({ description: 'bot_token or bot_chat_id is not saved' })
  async test(): Promise<BotTestResultDto> {
    const target = this.notifier.botTarget();
    if (!target) throw new PanelError('bot_not_configured', 'Save bot_token and bot_chat_id in the settings first');
    const result = await this.notifier.sendToBot(
      PanelNotifier.format('Test notification', ['The panel can reach this chat through the bot.', `Sent at ${new Date().toISOString()}`]),
    );
    if (!result) throw new PanelError('bot_not_configured', 'Save bot_token and bot_chat_id in the settings first');
    return {
      ok: result.ok,
      chat_id: target.chatId,
      status: result.status,
      telegram_error_code: result.telegramErrorCode,
      description: result.description,
      retry_after_seconds: result.retryAfterSeconds,
      message_ids: result.messageIds,
    };
  }
}
