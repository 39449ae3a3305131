import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PanelNotifier } from '../notifications/panel-notifier.service';
import { AccountGovernor } from '../governor/account-governor';

/**
 * Tells the owner when the governor pauses an account. Sent as an account-health notice (the
 * `session_invalid` switches: "an account needs you"), since both ask the owner to act on an account.
 */
@Injectable()
export class SafetyNotifications implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SafetyNotifications.name);
  private stop?: () => void;

  constructor(
    private readonly governor: AccountGovernor,
    private readonly notifier: PanelNotifier,
  ) {}

  onModuleInit(): void {
    this.stop = this.governor.onPause((event) => {
      const texts = this.notifier.texts();
      this.notifier
        .notify({
          kind: 'session_invalid',
          title: texts.say('pausedTitle', { account: event.accountName }),
          lines: [
            texts.say('account', { account: event.accountName }),
            texts.say('pausedFloodWait', { seconds: event.seconds, method: event.method }),
            texts.say('pausedHint'),
          ],
        })
        .catch((error: unknown) => this.logger.error({ err: error }, `Notifying the pause of ${event.accountName} failed`));
    });
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}
