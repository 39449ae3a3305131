import { Injectable } from '@nestjs/common';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { TelegramAuthorization } from '../telegram/telegram-gateway';
import { DeviceDto, OfficialMessageDto } from './dto/device.dto';
import { PanelError } from '../common/panel-error';

const DEVICE_CALL_TIMEOUT_MS = 15_000;

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function deviceView(authorization: TelegramAuthorization): DeviceDto {
  return {
    auth_hash: authorization.hash,
    device_model: authorization.deviceModel,
    platform: authorization.platform,
    system_version: authorization.systemVersion,
    app_name: authorization.appName,
    app_version: authorization.appVersion,
    ip: authorization.ip,
    location: [authorization.region, authorization.country].filter(Boolean).join(', '),
    country: authorization.country,
    region: authorization.region,
    created_at: iso(authorization.dateCreated),
    active_at: iso(authorization.dateActive),
    current: authorization.current,
    official_app: authorization.officialApp,
  };
}

/** Telegram lists the session making the call with hash 0. */
const CURRENT_SESSION_HASH = '0';

class CurrentSessionRefused extends PanelError {
  constructor() {
    super('current_session', 'This is the session panel-api uses for the account; it cannot be terminated here (log out from another device instead)');
  }
}

/** Logged-in devices of an account and the official 777000 messages, read through the Telegram port. */
@Injectable()
export class DevicesService {
  /** The real hash of each account's own session, when a listing ever showed it (Telegram usually shows 0). */
  private readonly currentHashes = new Map<string, string>();

  constructor(private readonly sessions: AccountSessionsService) {}

  async list(accountName: string): Promise<DeviceDto[]> {
    const authorizations = await this.sessions.run(accountName, (gateway, session) =>
      gateway.getAuthorizations(session, { timeoutMs: DEVICE_CALL_TIMEOUT_MS }),
    );
    this.rememberCurrent(accountName, authorizations);
    return authorizations.map(deviceView);
  }

  /**
   * Terminates another device. The account's own session (hash 0, or its real hash when known) is
   * refused before Telegram is asked, so the refusal holds even when Telegram cannot be reached.
   */
  async terminate(accountName: string, authHash: string): Promise<void> {
    if (authHash === CURRENT_SESSION_HASH || this.currentHashes.get(accountName) === authHash) throw new CurrentSessionRefused();
    await this.sessions.run(accountName, async (gateway, session) => {
      const authorizations = await gateway.getAuthorizations(session, { timeoutMs: DEVICE_CALL_TIMEOUT_MS });
      this.rememberCurrent(accountName, authorizations);
      const target = authorizations.find((a) => a.hash === authHash);
      if (target?.current) throw new CurrentSessionRefused();
      if (!target) throw new PanelError('device_not_found', `No device with auth_hash ${authHash} on account ${accountName}`);
      await gateway.resetAuthorization(session, authHash, { timeoutMs: DEVICE_CALL_TIMEOUT_MS });
    });
  }

  private rememberCurrent(accountName: string, authorizations: TelegramAuthorization[]): void {
    const current = authorizations.find((a) => a.current);
    if (current && current.hash !== CURRENT_SESSION_HASH) this.currentHashes.set(accountName, current.hash);
  }

  async officialMessages(accountName: string, limit: number): Promise<OfficialMessageDto[]> {
    const messages = await this.sessions.run(accountName, (gateway, session) =>
      gateway.getOfficialMessages(session, limit, { timeoutMs: DEVICE_CALL_TIMEOUT_MS }),
    );
    return messages.map((message) => ({ id: message.id, date: iso(message.date), text: message.text }));
  }
}
