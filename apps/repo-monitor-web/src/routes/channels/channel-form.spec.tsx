import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@shared/web-ui/testing';
import { describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';

const resources = { en, zh };
import { ChannelForm } from './channel-form';
import { Channel, channelFormFrom, createChannelBody, emptyChannelForm, updateChannelBody, validateChannelForm } from './channel-form-values';

const webhookChannel: Channel = {
  id: 'c1',
  kind: 'http_webhook',
  name: 'Receiver',
  enabled: true,
  chat_id: null,
  message_thread_id: null,
  url: 'https://hooks.example.com/monitor',
  smtp_host: null,
  smtp_port: null,
  smtp_security: null,
  smtp_username: null,
  email_from: null,
  email_to: null,
  secret_set: true,
  allow_private: false,
  event_kinds: ['issues'],
  last_test: null,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe('channel form values', () => {
  it('a new webhook without a secret asks the service to generate one (no secret field sent)', () => {
    const body = createChannelBody({ ...emptyChannelForm('http_webhook'), name: ' Hook ', url: 'https://x.example/h' });
    expect(body).toEqual({ kind: 'http_webhook', name: 'Hook', enabled: true, event_kinds: [], url: 'https://x.example/h', allow_private: false });
  });

  it('a telegram channel sends only its own fields', () => {
    const body = createChannelBody({ ...emptyChannelForm('telegram'), name: 'Chat', chat_id: '-1001', secret: '123456:abcdefghijklmnop', url: 'ignored' });
    expect(body).toEqual({ kind: 'telegram', name: 'Chat', enabled: true, event_kinds: [], chat_id: '-1001', secret: '123456:abcdefghijklmnop', allow_private: false });
  });

  it('editing without typing a secret keeps the saved one (secret left out)', () => {
    expect(updateChannelBody(channelFormFrom(webhookChannel))).not.toHaveProperty('secret');
    expect(updateChannelBody({ ...channelFormFrom(webhookChannel), secret: 'whsec_' + 'A'.repeat(44) })).toHaveProperty('secret');
  });

  it('checks the same rules as the service', () => {
    expect(validateChannelForm({ ...emptyChannelForm('telegram'), name: 'x', chat_id: 'nope' }, 'create')).toEqual({ chat_id: 'chatIdInvalid', secret: 'tokenRequired' });
    expect(validateChannelForm({ ...emptyChannelForm('telegram'), name: 'x', chat_id: '@mychannel' }, 'edit')).toEqual({});
    expect(validateChannelForm({ ...emptyChannelForm('http_webhook'), name: 'x', url: 'http://10.0.0.2/h' }, 'create')).toEqual({ url: 'urlHttpNeedsPrivate' });
    expect(validateChannelForm({ ...emptyChannelForm('http_webhook'), name: 'x', url: 'http://10.0.0.2/h', allow_private: true }, 'create')).toEqual({});
    expect(validateChannelForm({ ...emptyChannelForm('http_webhook'), name: 'x', url: 'https://a.example', secret: 'plain-text-secret' }, 'create')).toEqual({ secret: 'secretFormat' });
    expect(validateChannelForm({ ...emptyChannelForm('telegram'), name: 'x', chat_id: '-1001', secret: '123456:abcdefghijklmnop', message_thread_id: '0' }, 'create')).toEqual({
      message_thread_id: 'topicInvalid',
    });
    expect(validateChannelForm({ ...emptyChannelForm('discord'), name: 'x', url: 'https://discord.com/not-a-webhook' }, 'create')).toEqual({ url: 'urlDiscord' });
    expect(validateChannelForm({ ...emptyChannelForm('discord'), name: 'x', url: 'https://discord.com/…' }, 'create')).toEqual({ url: 'urlShortened' });
    expect(validateChannelForm({ ...emptyChannelForm('slack'), name: 'x', url: '' }, 'edit')).toEqual({});
    expect(validateChannelForm({ ...emptyChannelForm('slack'), name: 'x', url: '' }, 'create')).toEqual({ url: 'urlInvalid' });
    expect(validateChannelForm({ ...emptyChannelForm('ntfy'), name: 'x', url: 'https://ntfy.sh/t', secret: 'secret' }, 'create')).toEqual({ secret: 'ntfyToken' });
    expect(validateChannelForm({ ...emptyChannelForm('gotify'), name: 'x', url: 'https://gotify.example' }, 'create')).toEqual({ secret: 'gotifyTokenRequired' });
    expect(validateChannelForm({ ...emptyChannelForm('gotify'), name: 'x', url: 'https://gotify.example' }, 'edit')).toEqual({});
    expect(
      validateChannelForm({ ...emptyChannelForm('email'), name: 'x', smtp_host: 'smtp.example.com', smtp_port: '70000', smtp_security: 'none', email_from: 'me', email_to: 'a@example.com, nope' }, 'create'),
    ).toEqual({ smtp_port: 'smtpPortInvalid', smtp_security: 'smtpNoneNeedsPrivate', email_from: 'emailInvalid', email_to: 'recipientInvalid' });
  });

  it('sends each kind\'s own fields', () => {
    expect(createChannelBody({ ...emptyChannelForm('discord'), name: 'D', url: ' https://discord.com/api/webhooks/1/abcdefghijkl ', secret: 'ignored' })).toEqual({
      kind: 'discord',
      name: 'D',
      enabled: true,
      event_kinds: [],
      url: 'https://discord.com/api/webhooks/1/abcdefghijkl',
      allow_private: false,
    });
    expect(
      createChannelBody({ ...emptyChannelForm('email'), name: 'Mail', smtp_host: 'smtp.example.com', smtp_port: '465', smtp_security: 'tls', email_from: 'm@example.com', email_to: 'a@example.com\nb@example.com', secret: 'pw' }),
    ).toEqual({
      kind: 'email',
      name: 'Mail',
      enabled: true,
      event_kinds: [],
      smtp_host: 'smtp.example.com',
      smtp_port: 465,
      smtp_security: 'tls',
      email_from: 'm@example.com',
      email_to: ['a@example.com', 'b@example.com'],
      allow_private: false,
      secret: 'pw',
    });
    expect(createChannelBody({ ...emptyChannelForm('telegram'), name: 'T', chat_id: '-1001', secret: '123456:abcdefghijklmnop', message_thread_id: '42' })).toMatchObject({ message_thread_id: 42 });
    // Editing a Discord channel without a new URL keeps the saved one; clearing a Telegram topic sends null.
    const discordChannel: Channel = { ...webhookChannel, kind: 'discord', url: 'https://discord.com/…' };
    expect(channelFormFrom(discordChannel).url).toBe('');
    expect(updateChannelBody(channelFormFrom(discordChannel))).toEqual({ name: 'Receiver', enabled: true, event_kinds: ['issues'], allow_private: false });
    const topicChannel: Channel = { ...webhookChannel, kind: 'telegram', chat_id: '-1001', url: null, message_thread_id: 7 };
    expect(updateChannelBody({ ...channelFormFrom(topicChannel), message_thread_id: '' })).toMatchObject({ message_thread_id: null });
  });
});

describe('ChannelForm', () => {
  it('creates a webhook: the secret is optional and said to be generated', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(<ChannelForm mode="create" initial={emptyChannelForm()} submitting={false} onSubmit={onSubmit} onCancel={() => undefined} />, { resources });
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'http_webhook');
    expect(screen.queryByLabelText(/Chat id/)).not.toBeInTheDocument();
    expect(screen.getByText(/a Standard Webhooks secret is generated and shown once/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Name/), 'Receiver');
    await userEvent.type(screen.getByLabelText(/Receiver URL/), 'https://hooks.example.com/in');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Issues' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(createChannelBody(onSubmit.mock.calls[0][0])).toEqual({
      kind: 'http_webhook',
      name: 'Receiver',
      enabled: true,
      event_kinds: ['issues'],
      url: 'https://hooks.example.com/in',
      allow_private: false,
    });
  });

  it('offers every kind with its own fields: an email channel asks for its server, sender and recipients', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(<ChannelForm mode="create" initial={emptyChannelForm()} submitting={false} onSubmit={onSubmit} onCancel={() => undefined} />, { resources });
    const kinds = [...(screen.getByLabelText('Kind') as HTMLSelectElement).options].map((option) => option.value);
    expect(kinds).toEqual(['telegram', 'http_webhook', 'discord', 'slack', 'teams', 'ntfy', 'gotify', 'bark', 'email']);
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'email');
    expect(screen.queryByLabelText(/Chat id/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Name/), 'Mail');
    await userEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('A host name like smtp.example.com')).toBeInTheDocument();
    expect(screen.getByText('At least one recipient')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/SMTP server/), 'smtp.example.com');
    await userEvent.type(screen.getByLabelText(/From address/), 'monitor@example.com');
    await userEvent.type(screen.getByLabelText(/Recipients/), 'ops@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    expect(createChannelBody(onSubmit.mock.calls[0][0])).toMatchObject({ kind: 'email', smtp_host: 'smtp.example.com', smtp_port: 587, smtp_security: 'starttls', email_to: ['ops@example.com'] });
  });

  it('refuses a Telegram channel without its bot token, next to the field', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(<ChannelForm mode="create" initial={emptyChannelForm()} submitting={false} onSubmit={onSubmit} onCancel={() => undefined} />, { resources });
    await userEvent.type(screen.getByLabelText(/^Name/), 'Team');
    await userEvent.type(screen.getByLabelText(/Chat id/), '-100123');
    await userEvent.click(screen.getByRole('button', { name: 'Create channel' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('The bot token is needed')).toBeInTheDocument();
  });

  it('editing shows the saved secret only as saved, never its value, and keeps it when left empty', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(<ChannelForm mode="edit" initial={channelFormFrom(webhookChannel)} secretSet submitting={false} onSubmit={onSubmit} onCancel={() => undefined} />, { resources });
    const secret = screen.getByLabelText(/Signing secret/);
    expect(secret).toHaveValue('');
    expect(screen.getByText(/^Saved\. Leave empty to keep it/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Kind')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(updateChannelBody(onSubmit.mock.calls[0][0])).toEqual({ name: 'Receiver', enabled: true, event_kinds: ['issues'], url: 'https://hooks.example.com/monitor', allow_private: false });
  });
});
