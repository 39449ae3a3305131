import { SignTask } from '../sign-tasks/sign-task.types';
import { exportTask, resolveTaskSecrets } from './sign-task-section';

const stored: SignTask = {
  name: 'watch',
  account_name: 'alice',
  random_seconds: 0,
  execution_mode: 'listen',
  enabled: true,
  retry_count: 3,
  notify_on_failure: true,
  notify_on_success: false,
  last_run: { at: '2024-01-01T00:00:00Z', account_name: 'alice', success: true, message: 'ok', failure_category: 'none' },
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  chats: [
    {
      chat_id: -1001,
      actions: [
        { action: 8, keywords: ['a'], push_channel: 'bark', bark_url: 'https://api.day.app/KEY/' },
        {
          action: 8,
          keywords: ['b'],
          push_channel: 'continue',
          continue_chat_id: 5,
          continue_actions: [{ action: 1, text: 'hi' }],
          custom_url: 'https://hooks.example/TOKEN',
        },
      ],
    },
  ],
};

describe('task secrets in the configuration JSON', () => {
  it('masks credentials of listen rules (nested too) and leaves out run state', () => {
    const exported = exportTask(stored) as unknown as SignTask;
    expect(exported.chats[0].actions[0].bark_url).toBe('***MASKED***');
    expect(exported.chats[0].actions[1].custom_url).toBe('***MASKED***');
    expect(exported).not.toHaveProperty('last_run');
    expect(exported).not.toHaveProperty('created_at');
    expect(JSON.stringify(exported)).not.toMatch(/KEY|TOKEN/);
    expect(stored.chats[0].actions[0].bark_url).toBe('https://api.day.app/KEY/');
  });

  it('puts the stored secret back for any placeholder at the same place, and refuses one with nothing stored', () => {
    const incoming = JSON.parse(JSON.stringify(exportTask(stored))) as Record<string, unknown>;
    const chats = incoming['chats'] as Array<{ actions: Array<Record<string, unknown>> }>;
    chats[0].actions[0]['bark_url'] = 'REDACTED';
    chats[0].actions[1]['custom_url'] = 'https://hooks.example/NEW';
    const resolved = resolveTaskSecrets(incoming, stored);
    expect(resolved.problems).toEqual([]);
    const resolvedChats = resolved.document['chats'] as Array<{ actions: Array<Record<string, unknown>> }>;
    expect(resolvedChats[0].actions[0]['bark_url']).toBe('https://api.day.app/KEY/');
    expect(resolvedChats[0].actions[1]['custom_url']).toBe('https://hooks.example/NEW');

    const fresh = resolveTaskSecrets(incoming, undefined);
    expect(fresh.problems).toEqual(['chats[0].actions[0].bark_url is a masked placeholder but no stored value exists to keep']);
  });
});
