import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AccountEvent, AccountSessionsService } from '../accounts/account-sessions.service';
import { AdminLoginEvent, AdminLoginEvents } from '../auth/admin-login-events';
import { SettingsService } from '../settings/settings.service';
import { PanelNotifier } from './panel-notifier.service';

/**
 * Notices of account and admin events, to every configured channel (see PanelNotifier): an account
 * whose Telegram session became invalid and every successful admin login, each under its switches.
 */
@Injectable()
export class EventNotificationsService implements OnModuleInit, OnModuleDestroy {
  private unsubscribers: Array<() => void> = [];

  constructor(
    private readonly notifier: PanelNotifier,
    private readonly settings: SettingsService,
    private readonly accounts: AccountSessionsService,
    private readonly adminLogins: AdminLoginEvents,
  ) {}

  onModuleInit(): void {
    this.unsubscribers = [
      this.accounts.onEvent((event) => this.onAccountEvent(event)),
      this.adminLogins.onLogin((event) => this.onAdminLogin(event)),
    ];
  }

  onModuleDestroy(): void {
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.unsubscribers = [];
  }

  private async onAccountEvent(event: AccountEvent): Promise<void> {
    // A session already known to be invalid was reported when it was first found; do not repeat it.
    if (event.type !== 'session_invalid' || !event.newlyInvalid) return;
    const texts = this.notifier.texts();
    await this.notifier.notify({
      kind: 'session_invalid',
      title: texts.say('sessionInvalidTitle'),
      lines: [
        texts.say('account', { account: event.accountName }),
        texts.say('reason', { reason: texts.runMessage({ message: event.message, success: false, failure_category: 'session_invalid' }) }),
        texts.say('time', { time: this.localTime(new Date()) }),
        texts.say('sessionInvalidHint'),
      ],
    });
  }

  private async onAdminLogin(event: AdminLoginEvent): Promise<void> {
    const texts = this.notifier.texts();
    await this.notifier.notify({
      kind: 'admin_login',
      title: texts.say('adminLoginTitle'),
      lines: [texts.say('user', { user: event.username }), texts.say('clientIp', { ip: event.clientIp }), texts.say('time', { time: this.localTime(event.at) })],
    });
  }

  /** `2024-05-01 14:00:00 Europe/Berlin`, in the time zone of the settings. */
  private localTime(at: Date): string {
    const timeZone = this.settings.getGlobal().timezone;
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    }).format(at);
    return `${local} ${timeZone}`;
  }
}
