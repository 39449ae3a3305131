import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@shared/web-ui/testing';
import { describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';

const resources = { en, zh };
import { GithubAppForm } from './github-app-form';
import { githubAppFormFrom, GithubAppSettings, githubAppUpdateBody, webhookUrl } from './github-app-form-values';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n';

function settings(overrides: Partial<GithubAppSettings> = {}): GithubAppSettings {
  return { app_id: '123', app_slug: null, client_id: 'Iv1.abc', client_secret_set: false, private_key_set: false, webhook_secret_set: true, public_base_url: 'https://monitor.example.com/', configured: false, locked_fields: [], ...overrides };
}

describe('GitHub App form values', () => {
  it('never sends a locked field, even when the form holds a change to it', () => {
    const saved = settings({ locked_fields: ['app_id', 'webhook_secret'] });
    const body = githubAppUpdateBody({ ...githubAppFormFrom(saved), app_id: '999', client_id: 'Iv1.new', webhook_secret: 'typed' }, saved);
    expect(body).toEqual({ client_id: 'Iv1.new' });
  });

  it('an emptied field clears it (null); secrets only when typed or cleared', () => {
    const saved = settings({ private_key_set: true });
    expect(githubAppUpdateBody({ ...githubAppFormFrom(saved), client_id: '' }, saved)).toEqual({ client_id: null });
    expect(githubAppUpdateBody({ ...githubAppFormFrom(saved), clear_private_key: true, private_key: PEM }, saved)).toEqual({ private_key: null });
    expect(githubAppUpdateBody(githubAppFormFrom(saved), saved)).toEqual({});
  });

  it('builds the webhook URL from the public base URL', () => {
    expect(webhookUrl('https://monitor.example.com/')).toBe('https://monitor.example.com/webhooks/github');
    expect(webhookUrl(null)).toBeNull();
  });
});

describe('GithubAppForm', () => {
  it('shows a locked field read-only with the variable that sets it', () => {
    renderWithProviders(<GithubAppForm settings={settings({ locked_fields: ['app_id', 'private_key'] })} saving={false} onSave={() => undefined} />, { resources });
    const appId = screen.getByLabelText(/App id/);
    expect(appId).toHaveAttribute('readonly');
    expect(screen.getByText('Set by MONITOR_VCS_APP_ID; change it there')).toBeInTheDocument();
    expect(screen.getByText('Set by MONITOR_VCS_PRIVATE_KEY_PATH; change it there')).toBeInTheDocument();
    expect(screen.getByLabelText(/Client id/)).not.toHaveAttribute('readonly');
    expect(screen.queryByRole('radio', { name: 'Upload file' })).not.toBeInTheDocument();
  });

  it('reads an uploaded key file and sends its PEM text', async () => {
    const onSave = vi.fn();
    renderWithProviders(<GithubAppForm settings={settings()} saving={false} onSave={onSave} />, { resources });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File([PEM], 'app.private-key.pem', { type: 'application/x-pem-file' }));
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledWith({ private_key: PEM.trim() });
  });

  it('refuses a file that is not a PEM key before sending anything', async () => {
    const onSave = vi.fn();
    renderWithProviders(<GithubAppForm settings={settings()} saving={false} onSave={onSave} />, { resources });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File(['hello'], 'notes.pem', { type: 'text/plain' }));
    expect(await screen.findByText(/This is not a PEM private key/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('takes pasted PEM text as the other way in', async () => {
    const onSave = vi.fn();
    renderWithProviders(<GithubAppForm settings={settings()} saving={false} onSave={onSave} />, { resources });
    await userEvent.click(screen.getByRole('radio', { name: 'Paste PEM' }));
    const text = screen.getByLabelText(/PEM text/);
    await userEvent.click(text);
    await userEvent.paste(PEM);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ private_key: PEM.trim() });
  });
});
