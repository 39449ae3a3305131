import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { BotTestResultDto } from './dto/bot-test.dto';
import { ChannelParamDto, ChannelTestDto, ChannelTestListDto } from './dto/channel-test.dto';
import { ChannelTestsService } from './channel-tests.service';
import { PanelNotifier } from './panel-notifier.service';
import { PanelError } from '../common/panel-error';

@ApiTags('notifications')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config')
export class NotificationsController {
  constructor(
    private readonly notifier: PanelNotifier,
    private readonly channelTests: ChannelTestsService,
  ) {}

  @Post('bot/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test message with the saved bot settings and report the Bot API answer',
    description: 'Sent whatever the notification switches say. A refusal by Telegram answers 200 with ok=false and its description. Kept as the bot\'s last test.',
  })
  @ApiOkResponse({ type: BotTestResultDto })
  @ApiBadRequestResponse({ description: 'bot_token or bot_chat_id is not saved' })
  async test(): Promise<BotTestResultDto> {
    const target = this.notifier.botTarget();
    if (!target) throw new PanelError('bot_not_configured', 'Save the bot token and the chat id in the settings first');
    const result = await this.notifier.sendToBot(
      PanelNotifier.format('Test notification', ['The panel can reach this chat through the bot.', `Sent at ${new Date().toISOString()}`]),
    );
    if (!result) throw new PanelError('bot_not_configured', 'Save the bot token and the chat id in the settings first');
    await this.channelTests.record('bot', {
      ok: result.ok,
      errorCode: result.ok ? undefined : (result.errorCode ?? 'rejected_by_receiver'),
      status: result.status,
      detail: result.ok || result.telegramErrorCode === undefined ? undefined : result.description?.slice(0, 300),
    });
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

  @Get('notifications/tests')
  @ApiOperation({ summary: 'The last test of every notification channel tested so far (bot, bark, server_chan, ntfy, custom_webhook)' })
  @ApiOkResponse({ type: ChannelTestListDto })
  async lastTests(): Promise<ChannelTestListDto> {
    return { tests: await this.channelTests.list() };
  }

  @Post('notifications/:channel/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test message through one channel with the saved settings and keep the result as its last test',
    description: 'Sent whatever the notification switches say, in one attempt. A refusal or an unreachable receiver answers 200 with ok=false and error_code.',
  })
  @ApiOkResponse({ type: ChannelTestDto })
  @ApiBadRequestResponse({ description: 'An unknown channel, or the channel is not configured (channel_not_configured)' })
  async testChannel(@Param() params: ChannelParamDto): Promise<ChannelTestDto> {
    return this.channelTests.test(params.channel);
  }
}
