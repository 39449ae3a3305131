import { EntityManager } from 'typeorm';
import { ENCRYPTED_COLUMNS } from '../settings/encrypted-columns';
import { SecretCipher } from '../settings/secret-cipher';
import { NotificationChannelEntity } from './notification-channel.entity';

const SECRET_COLUMN = ENCRYPTED_COLUMNS.find((column) => column.table === 'notification_channels' && column.column === 'secret');

/** Associated data that binds a channel's secret envelope to its row. */
export function channelSecretAssociatedData(id: string): string {
  if (!SECRET_COLUMN) throw new Error('notification_channels.secret is missing from ENCRYPTED_COLUMNS');
  return SECRET_COLUMN.associatedData(id);
}

/** The signing secrets of every outbound webhook channel (so the inbound secret can be kept apart). */
export async function storedOutboundSecrets(manager: EntityManager, cipher: SecretCipher): Promise<string[]> {
  if (!cipher.available) return [];
  const channels = await manager.find(NotificationChannelEntity, { where: { kind: 'http_webhook' } });
  return channels.filter((channel) => channel.secret).map((channel) => cipher.open(channel.secret as string, channelSecretAssociatedData(channel.id)));
}
