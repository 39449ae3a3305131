import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/all';
import { formProblems, formValuesOf, secretsNeededAgain, settingsPatch, SettingsView } from './settings-form';
import { SettingsPage } from './settings-page';

const resources = { en, zh };

const VIEW: SettingsView = {
  device_keepalive_enabled: true,
  device_keepalive_interval_days: 30,
  auto_backup_enabled: false,
  auto_backup_interval_hours: 24,
  auto_backup_keep: 7,
  webdav_url: 'https://dav.example.com/files',
  webdav_username: 'me',
  webdav_password_set: true,
  webdav_dir: 'tg-signpulse-backups',
  bot_token_set: true,
  bot_chat_id: '42',
  bot_notify_enabled: true,
  bot_notify_task_failure: true,
  bot_notify_task_success: false,
  bot_notify_session_invalid: true,
  bot_notify_admin_login: false,
  bot_notify_backup_failure: true,
  push_bark_url_set: false,
  push_server_chan_key_set: false,
  push_ntfy_url: null,
  push_ntfy_token_set: false,
  push_discord_url_set: true,
  push_slack_url_set: false,
  push_teams_url_set: false,
  push_gotify_url: null,
  push_gotify_token_set: false,
  push_email_smtp_host: 'smtp.example.org',
  push_email_smtp_port: 587,
  push_email_smtp_security: 'starttls',
  push_email_smtp_username: 'panel',
  push_email_smtp_password_set: true,
  push_email_from: 'panel@example.org',
  push_email_to: 'ops@example.org',
  webhook_url: null,
  webhook_secret_set: false,
  push_notify_task_failure: true,
  push_notify_task_success: false,
  push_notify_backup_failure: true,
  push_notify_session_invalid: true,
  push_notify_admin_login: false,
  notify_language: 'en',
  timezone: 'Asia/Shanghai',
  safety_min_spacing_seconds: 3,
  safety_per_minute: 20,
  safety_per_day: 500,
  safety_jitter_ms: 1500,
  safety_flood_pause_seconds: 600,
  ai_base_url: 'https://api.example.com/v1',
  ai_model: 'gpt-4o-mini',
  ai_api_key_set: true,
  telegram_api_id: null,
  telegram_api_hash_set: false,
};

describe('settings form logic', () => {
  it('sends nothing while nothing changed, and only what changed afterwards', () => {
    const values = formValuesOf(VIEW);
    expect(settingsPatch(VIEW, values)).toEqual({});
    values.text.bot_chat_id = '@my_channel';
    values.flags.auto_backup_enabled = true;
    values.numbers.auto_backup_keep = 3;
    expect(settingsPatch(VIEW, values)).toEqual({ bot_chat_id: '@my_channel', auto_backup_enabled: true, auto_backup_keep: 3 });
  });

  it('keeps a saved secret while its field is empty, replaces it when typed and clears it only when asked', () => {
    const values = formValuesOf(VIEW);
    expect(settingsPatch(VIEW, values)).not.toHaveProperty('bot_token');
    values.secrets.bot_token = { value: '123:new', clear: false };
    expect(settingsPatch(VIEW, values)).toEqual({ bot_token: '123:new' });
    values.secrets.bot_token = { value: '', clear: true };
    expect(settingsPatch(VIEW, values)).toEqual({ bot_token: null });
    // Clearing a secret that is not saved changes nothing.
    values.secrets.bot_token = { value: '', clear: false };
    values.secrets.push_ntfy_token = { value: '', clear: true };
    expect(settingsPatch(VIEW, values)).toEqual({});
  });

  it('clears nullable text when emptied and refuses empty required text and out-of-range numbers', () => {
    const values = formValuesOf(VIEW);
    values.text.ai_model = '  ';
    values.numbers.telegram_api_id = '';
    expect(settingsPatch(VIEW, values)).toEqual({ ai_model: null });
    expect(formProblems(values)).toEqual({});
    values.text.webdav_dir = '';
    values.numbers.device_keepalive_interval_days = 171;
    values.numbers.auto_backup_keep = '';
    expect(Object.keys(formProblems(values)).sort()).toEqual(['auto_backup_keep', 'device_keepalive_interval_days', 'webdav_dir']);
  });

  it('asks for a secret again when its URL moves to another server, not for another path on the same one', () => {
    const values = formValuesOf(VIEW);
    values.text.webdav_url = 'https://dav.example.com/other/path';
    expect(secretsNeededAgain(VIEW, values)).toEqual([]);
    values.text.webdav_url = 'https://evil.example.net/files';
    values.text.ai_base_url = 'http://api.example.com/v1';
    expect(secretsNeededAgain(VIEW, values)).toEqual(['webdav_password', 'ai_api_key']);
    values.secrets.webdav_password = { value: 'new-pass', clear: false };
    values.secrets.ai_api_key = { value: '', clear: true };
    expect(secretsNeededAgain(VIEW, values)).toEqual([]);
    // No saved secret: nothing to ask for.
    values.text.webhook_url = 'https://hooks.example.org/x';
    expect(secretsNeededAgain(VIEW, values)).toEqual([]);
  });

  it('says an AI base URL that is no address is not an address, not that it points to another server', () => {
    const values = formValuesOf(VIEW);
    values.text.ai_base_url = 'not a url';
    expect(secretsNeededAgain(VIEW, values)).toEqual([]);
    expect(formProblems(values)).toEqual({ ai_base_url: { rule: 'http_url' } });
  });

  it('checks what the service would refuse, by the rule it names', () => {
    const values = formValuesOf(VIEW);
    values.text.bot_chat_id = 'chat 1';
    values.text.webdav_dir = '../etc';
    values.secrets.bot_token = { value: 'no-colon', clear: false };
    values.secrets.telegram_api_hash = { value: 'xyz', clear: false };
    values.secrets.webhook_secret = { value: 'short', clear: false };
    expect(formProblems(values)).toEqual({
      bot_chat_id: { rule: 'chat_id' },
      webdav_dir: { rule: 'folder_path' },
      bot_token: { rule: 'bot_token' },
      telegram_api_hash: { rule: 'api_hash' },
      webhook_secret: { rule: 'too_short', min: 16 },
    });
    values.text.bot_chat_id = '@my_channel';
    values.text.webdav_dir = 'backups/panel';
    values.secrets.bot_token = { value: '123:abc_DEF-1', clear: false };
    values.secrets.telegram_api_hash = { value: '0123456789abcdef0123456789ABCDEF', clear: false };
    values.secrets.webhook_secret = { value: 'a-long-enough-secret', clear: false };
    expect(formProblems(values)).toEqual({});
  });

  it('checks the new channels as the service does, and asks for the SMTP password again on another mail server', () => {
    const values = formValuesOf(VIEW);
    values.text.push_email_smtp_host = 'smtp://mail.example.org';
    values.text.push_email_smtp_username = 'two words';
    values.text.push_email_from = 'panel at example.org';
    values.text.push_email_to = 'ops@example.org, nobody';
    values.text.push_gotify_url = 'gotify.example.org';
    values.numbers.push_email_smtp_port = 70000;
    values.secrets.push_slack_url = { value: 'hooks.slack.com/x', clear: false };
    values.secrets.push_gotify_token = { value: 'has spaces', clear: false };
    expect(formProblems(values)).toEqual({
      push_email_smtp_host: { rule: 'host_name' },
      push_email_smtp_username: { rule: 'no_spaces' },
      push_email_from: { rule: 'email_from' },
      push_email_to: { rule: 'email_list' },
      push_gotify_url: { rule: 'http_url' },
      push_email_smtp_port: { rule: 'range', min: 1, max: 65535 },
      push_slack_url: { rule: 'http_url' },
      push_gotify_token: { rule: 'app_token' },
    });
    // A host that is no host name is its own field's problem, not "another server".
    expect(secretsNeededAgain(VIEW, values)).toEqual([]);
    values.text.push_email_smtp_host = 'mail.example.net';
    values.text.push_email_smtp_username = '';
    values.text.push_email_from = 'Sign Panel <panel@example.org>';
    values.text.push_email_to = 'ops@example.org; oncall@example.org';
    values.text.push_gotify_url = '';
    values.numbers.push_email_smtp_port = 465;
    values.text.push_email_smtp_security = 'tls';
    values.secrets.push_slack_url = { value: 'https://hooks.slack.com/services/T/B/x', clear: false };
    values.secrets.push_gotify_token = { value: 'AbC.d_e-1', clear: false };
    expect(formProblems(values)).toEqual({});
    expect(secretsNeededAgain(VIEW, values)).toEqual(['push_email_smtp_password']);
    expect(settingsPatch(VIEW, values)).toEqual({
      push_email_smtp_host: 'mail.example.net',
      push_email_smtp_username: null,
      push_email_from: 'Sign Panel <panel@example.org>',
      push_email_to: 'ops@example.org; oncall@example.org',
      push_email_smtp_port: 465,
      push_email_smtp_security: 'tls',
      push_slack_url: 'https://hooks.slack.com/services/T/B/x',
      push_gotify_token: 'AbC.d_e-1',
    });
  });
});

const BACKUP_STATUS = {
  webdav_configured: true,
  webdav_folder: 'tg-signpulse-backups',
  auto_backup_enabled: false,
  auto_backup_interval_hours: 24,
  auto_backup_keep: 7,
  next_auto_backup_at: null,
  last_auto_backup: null,
  local_backups: [],
  database_driver: 'sqlite',
  sizes: { database_bytes: 4096, sessions_bytes: 0, signer_bytes: 0, signer_history_bytes: 0, settings_bytes: 100, local_backups_bytes: 0 },
};

/** Answers the reads the settings page makes besides the settings. */
function otherReads(request: Request): Response | undefined {
  const path = new URL(request.url).pathname;
  if (path === '/api/ops/backup/status') return jsonResponse(BACKUP_STATUS);
  if (path === '/api/ops/backup/webdav/files') return jsonResponse({ folder: 'tg-signpulse-backups', files: [] });
  return undefined;
}

describe('SettingsPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('shows a saved secret as saved, says when a moved URL needs it again, and saves only the change', async () => {
    const puts: unknown[] = [];
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      const other = otherReads(request);
      if (other) return other;
      if (request.method === 'PUT') {
        const body = (await request.json()) as Record<string, unknown>;
        puts.push(body);
        return jsonResponse({ ...VIEW, webdav_url: body['webdav_url'], webdav_password_set: true });
      }
      return jsonResponse(VIEW);
    });
    renderWithProviders(<SettingsPage />, { resources, path: '/settings', url: '/settings?tab=backups' });
    const url = await screen.findByLabelText('WebDAV URL');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(screen.getAllByText('Saved; leave empty to keep it.').length).toBeGreaterThan(0);
    // Nothing to save yet: no save bar.
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await userEvent.clear(url);
    await userEvent.type(url, 'https://backup.example.org/dav');
    expect(await screen.findByText('The address now points to another server: enter this again, or clear it.')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await userEvent.type(password, 'fresh-password');
    expect(screen.queryByText('The address now points to another server: enter this again, or clear it.')).not.toBeInTheDocument();
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await screen.findByText('Settings saved');
    expect(puts).toEqual([{ webdav_url: 'https://backup.example.org/dav', webdav_password: 'fresh-password' }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument());
  });

  it('shows what the service refused on the field, in the page language, until the field is edited; a later save takes the error toast away', async () => {
    let refuse = true;
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      const other = otherReads(request);
      if (other) return other;
      if (request.method === 'PUT') {
        const body = (await request.json()) as Record<string, unknown>;
        if (refuse) {
          refuse = false;
          return jsonResponse(
            {
              statusCode: 400,
              error: 'Bad Request',
              message: 'ai_model must be at most 128 characters',
              code: 'validation_failed',
              fields: [{ field: 'ai_model', rule: 'too_long', max: 128, message: 'Use at most 128 characters.' }],
            },
            400,
          );
        }
        return jsonResponse({ ...VIEW, ai_model: body['ai_model'] });
      }
      return jsonResponse(VIEW);
    });
    renderWithProviders(<SettingsPage />, { resources, language: 'zh-CN', path: '/settings', url: '/settings' });
    await screen.findByRole('tab', { name: '常规' });
    await userEvent.click(screen.getByRole('tab', { name: 'AI' }));
    const model = await screen.findByLabelText('模型');
    await userEvent.type(model, '-long');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    // On the field, in Chinese, with the limit; the toast says to look at the fields, never the API's words.
    expect(await screen.findByText('最多 128 个字符。')).toBeInTheDocument();
    expect(await screen.findByText('有些字段需要修改，每个字段下方都写明了要改什么。')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/ai_model|must be/);
    await userEvent.type(model, 'x');
    expect(screen.queryByText('最多 128 个字符。')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByText('设置已保存');
    await waitFor(() => expect(screen.queryByText('有些字段需要修改，每个字段下方都写明了要改什么。')).not.toBeInTheDocument());
  });

  it('sends null for a secret only when "clear" is ticked', async () => {
    const bodies: unknown[] = [];
    fetchMock.mockImplementation(async (input) => {
      const request = input as Request;
      const other = otherReads(request);
      if (other) return other;
      if (request.method === 'PUT') {
        bodies.push(await request.json());
        return jsonResponse({ ...VIEW, ai_api_key_set: false });
      }
      return jsonResponse(VIEW);
    });
    renderWithProviders(<SettingsPage />, { resources, path: '/settings', url: '/settings?tab=ai' });
    await userEvent.click(await screen.findByLabelText('Clear the saved API key'));
    expect(screen.getByLabelText('API key')).toBeDisabled();
    expect(screen.getByText('Will be cleared when you save.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toEqual([{ ai_api_key: null }]));
  });
});
