import { screen } from '@testing-library/react';
import { renderWithProviders } from '@shared/web-ui/testing';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../i18n/all';
import { KeepaliveReplicaFailures, useReplicaFailureText } from './replica-failures';

const resources = { en, zh };

function RunFailures() {
  const text = useReplicaFailureText();
  const lines = [
    ...text.notStarted([
      { account_name: 'alice', code: 'service_unavailable', message: 'Replica r2 did not answer' },
      { account_name: 'bob', code: 'needs_relogin', message: 'Account bob needs_relogin: SESSION_REVOKED' },
      { account_name: 'carol', code: 'some_future_code', message: 'Something new went wrong' },
    ]),
    ...text.notStopped([{ replica_id: 'replica-b', code: 'service_unavailable', message: 'no answer' }]),
  ];
  return (
    <ul>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

describe('replica failures in plain words', () => {
  it('names each account that did not start and why, and the replica whose runs were not stopped', async () => {
    renderWithProviders(<RunFailures />, { resources });
    const items = (await screen.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items[0]).toBe('alice did not start: the replica that holds it did not answer (it may be restarting). Try again in a minute.');
    expect(items[1]).toMatch(/^bob did not start: /);
    expect(items[1]).not.toMatch(/needs_relogin|SESSION_REVOKED/);
    // A code this version does not know: the service's own sentence.
    expect(items[2]).toBe('carol did not start: Something new went wrong');
    expect(items[3]).toBe('The runs held by replica replica-b were not asked to stop: the replica that holds it did not answer (it may be restarting). Try again in a minute.');
  });

  it('lists the replicas a keep-alive round did not reach, in Chinese too, and nothing when all answered', async () => {
    const { unmount } = renderWithProviders(<KeepaliveReplicaFailures failures={[{ replica_id: 'replica-b', code: 'service_unavailable', message: 'no answer' }]} />, {
      resources,
      language: 'zh-CN',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('部分账号未被唤醒');
    expect(screen.getByText('副本 replica-b 持有的账号未被唤醒：持有它的副本没有应答（可能正在重启）。请一分钟后再试。')).toBeInTheDocument();
    unmount();
    renderWithProviders(<KeepaliveReplicaFailures failures={[]} />, { resources });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
