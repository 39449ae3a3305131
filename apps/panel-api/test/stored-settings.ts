import { SettingsService } from '../src/app/settings/settings.service';
import type { RunningPanel } from './harness';

/**
 * The settings as the database holds them (the `panel_settings` rows, secrets opened with the
 * instance's key), read from the table rather than from the service's memory; `text` is the rows
 * as stored, to show what is sealed and to compare before and after.
 */
export async function storedSettings(panel: Pick<RunningPanel, 'app'>): Promise<{ global: Record<string, unknown>; ai: Record<string, unknown>; telegramApi: Record<string, unknown>; text: string }> {
  const { groups, text } = await panel.app.get(SettingsService, { strict: false }).readStored();
  return { ...groups, text };
}
