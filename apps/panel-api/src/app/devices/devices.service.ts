import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { TelegramAuthorization } from '../telegram/telegram-gateway';
import { DeviceDto, OfficialMessageDto } from './dto/device.dto';

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

/** Logged-in devices of an account and the official 777000 messages, read through the Telegram port. */
@Injectable()
export class DevicesService {
  constructor(private readonly sessions: AccountSessionsService) {}

  async list(accountName: string): Promise<DeviceDto[]> {
    const authorizations = await this.sessions.run(accountName, (gateway, session) =>
      gateway.getAuthorizations(session, { timeoutMs: DEVICE_CALL_TIMEOUT_MS }),
    );
    return authorizations.map(deviceView);
  }

  async terminate(accountName: string, authHash: string): Promise<void> {
    await this.sessions.run(accountName, async (gateway, session) => {
      const authorizations = await gateway.getAuthorizations(session, { timeoutMs: DEVICE_CALL_TIMEOUT_MS });
      const target = authorizations.find((a) => a.hash === authHash);
      if (target?.current || authHash === '0') {
        throw new ConflictException('This is the session panel-api uses for the account; it cannot be terminated here (log out from another device instead)');
      }
      if (!target) throw new NotFoundException(`No device with auth_hash ${authHash} on account ${accountName}`);
      await gateway.resetAuthorization(session, authHash, { timeoutMs: DEVICE_CALL_TIMEOUT_MS });
    });
  }

  async officialMessages(accountName: string, limit: number): Promise<OfficialMessageDto[]> {
    const messages = await this.sessions.run(accountName, (gateway, session) =>
      gateway.getOfficialMessages(session, limit, { timeoutMs: DEVICE_CALL_TIMEOUT_MS }),
    );
    return messages.map((message) => ({ id: message.id, date: iso(message.date), text: message.text }));
  }
}
