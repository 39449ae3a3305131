import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/client';
import { en, zh } from '../../i18n/resources';
import { RuleEditor } from './rule-editor';
import { listEntries, ruleFormFrom, ruleUpdateBody, validateRuleForm } from './rule-form-values';

const resources = { en, zh };

const rule: Schemas['NotificationRuleDto'] = {
  id: '8f0c7c1e-0000-4000-8000-000000000001',
  position: 1,
  name: 'Failed CI',
  enabled: true,
  match: { events: ['workflow_run'], conclusions: ['failure'], branches: ['main'] },
  route: { channel_ids: ['tg'], message_thread_id: 42, mode: 'now', quiet_hours: null },
  stop: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};
const channels = [
  { id: 'tg', name: 'Ops forum', kind: 'telegram' },
  { id: 'hook', name: 'Hook', kind: 'http_webhook' },
] as Schemas['NotificationChannelDto'][];

describe('rule form values', () => {
  it('round-trips a rule, splitting lists on commas and lines', () => {
    expect(ruleUpdateBody(ruleFormFrom(rule))).toEqual({
      name: 'Failed CI',
      enabled: true,
      stop: true,
      match: { events: ['workflow_run'], conclusions: ['failure'], branches: ['main'] },
      route: { channel_ids: ['tg'], message_thread_id: 42, mode: 'now', quiet_hours: null },
    });
    expect(listEntries(' main,\nrelease/* , ,main')).toEqual(['main', 'release/*']);
  });

  it('checks what the service checks', () => {
    const values = ruleFormFrom(rule);
    const kinds = new Map(channels.map((channel) => [channel.id, channel.kind]));
    expect(validateRuleForm({ ...values, channel_ids: ['hook'] }, kinds)).toEqual({ topic: 'topicNeedsTelegram' });
    expect(validateRuleForm({ ...values, topic: '0' }, kinds)).toEqual({ topic: 'topicInvalid' });
    expect(validateRuleForm({ ...values, quiet: true, quiet_start: '7:00' }, kinds)).toEqual({ quiet: 'quietFormat' });
    expect(validateRuleForm({ ...values, quiet: true, quiet_start: '07:00', quiet_end: '07:00' }, kinds)).toEqual({ quiet: 'quietSame' });
    expect(validateRuleForm({ ...values, lists: { ...values.lists, actions: 'Opened' } }, kinds)).toEqual({ actions: 'actionInvalid' });
    expect(validateRuleForm({ ...values, name: ' ' }, kinds)).toEqual({ name: 'nameRequired' });
  });
});

describe('RuleEditor', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('edits the match fields of a saved rule and sends the whole match and route', async () => {
    const bodies: unknown[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      bodies.push(await request.json());
      return jsonResponse({ ...rule, name: 'Failed CI of release' });
    });
    const onSaved = vi.fn();
    renderWithProviders(<RuleEditor rule={rule} channels={channels} onSaved={onSaved} onCancel={() => undefined} />, { resources });
    expect(screen.getByLabelText('Branches')).toHaveValue('main');
    await userEvent.clear(screen.getByLabelText(/^Name/));
    await userEvent.type(screen.getByLabelText(/^Name/), 'Failed CI of release');
    await userEvent.type(screen.getByLabelText('Branches'), ', release/*');
    await userEvent.type(screen.getByLabelText('None of these labels'), 'wontfix');
    await userEvent.click(screen.getByLabelText(/Ignore bots/));
    await userEvent.clear(screen.getByLabelText(/Telegram topic/));
    await userEvent.type(screen.getByLabelText(/Telegram topic/), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('A topic id is a whole number from 1')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText(/Telegram topic/));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(bodies[0]).toEqual({
      name: 'Failed CI of release',
      enabled: true,
      stop: true,
      match: { events: ['workflow_run'], conclusions: ['failure'], branches: ['main', 'release/*'], labels_none: ['wontfix'], ignore_bots: true },
      route: { channel_ids: ['tg'], message_thread_id: null, mode: 'now', quiet_hours: null },
    });
  });
});
