import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PanelError } from '../common/panel-error';
import { ChannelTestDto } from './dto/channel-test.dto';
import { ChannelTest } from './entities/channel-test.entity';
import { ChannelTestOutcome, PanelNotifier, TestableChannel, TESTABLE_CHANNELS } from './panel-notifier.service';

function viewOf(row: ChannelTest): ChannelTestDto {
  return {
    channel: row.channel as TestableChannel,
    tested_at: new Date(row.testedAt).toISOString(),
    ok: row.ok,
    error_code: row.errorCode,
    status: row.status,
    detail: row.detail,
  };
}

/** Tests a notification channel with the saved settings and keeps the last result of each channel. */
@Injectable()
export class ChannelTestsService {
  constructor(
    private readonly notifier: PanelNotifier,
    @InjectRepository(ChannelTest) private readonly tests: Repository<ChannelTest>,
  ) {}

  async list(): Promise<ChannelTestDto[]> {
    const rows = await this.tests.find();
    return rows
      .filter((row) => (TESTABLE_CHANNELS as readonly string[]).includes(row.channel))
      .sort((a, b) => TESTABLE_CHANNELS.indexOf(a.channel as TestableChannel) - TESTABLE_CHANNELS.indexOf(b.channel as TestableChannel))
      .map(viewOf);
  }

  async test(channel: TestableChannel): Promise<ChannelTestDto> {
    const outcome = await this.notifier.testChannel(channel);
    if (!outcome) throw new PanelError('channel_not_configured', `Set up the ${CHANNEL_NAMES[channel]} in the settings and save before testing it`);
    return this.record(channel, outcome);
  }

  /** Stores a test's outcome as the channel's last one (also used by the bot's own test endpoint). */
  async record(channel: TestableChannel, outcome: ChannelTestOutcome): Promise<ChannelTestDto> {
    const row = this.tests.create({
      channel,
      testedAt: Date.now(),
      ok: outcome.ok,
      errorCode: outcome.ok ? null : (outcome.errorCode ?? null),
      status: outcome.status ?? null,
      detail: outcome.ok ? null : (outcome.detail ?? null),
    });
    await this.tests.save(row);
    return viewOf(row);
  }
}

const CHANNEL_NAMES: Record<TestableChannel, string> = {
  bot: 'Telegram bot (bot token and chat id)',
  bark: 'Bark URL',
  server_chan: 'ServerChan send key',
  ntfy: 'ntfy URL',
  discord: 'Discord webhook URL',
  slack: 'Slack webhook URL',
  teams: 'Teams workflow URL',
  gotify: 'Gotify server URL and application token',
  email: 'email channel (SMTP server, sender and recipients)',
  custom_webhook: 'signed webhook (URL and secret)',
};
