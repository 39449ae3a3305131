import { renderWithProviders } from '@shared/web-ui/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../i18n/all';
import { ClusterOverview } from './cluster-overview';
import { formatRelativeTime } from './format';

const NOW = Date.parse('2026-11-28T05:00:00Z');

const replicas = {
  enabled: true,
  replica_id: 'panel-api-1',
  replicas: [
    { id: 'panel-api-0', address: 'http://10.0.3.7:8000', version: '1.4.0', last_heartbeat_at: '2026-11-28T04:59:55Z', leader: true, accounts: ['alice', 'bob'] },
    { id: 'panel-api-1', address: 'http://10.0.3.8:8000', version: '1.4.0', last_heartbeat_at: '2026-11-28T04:59:58Z', leader: false, accounts: [] },
  ],
  accounts: [
    { name: 'alice', owner: 'panel-api-0', epoch: 3 },
    { name: 'bob', owner: 'panel-api-0', epoch: 1 },
    { name: 'carol', owner: null, epoch: 2 },
  ],
};

describe('the cluster on the About page', () => {
  it('shows each live replica with its address, version, heartbeat, leadership and accounts, and the accounts between owners', () => {
    renderWithProviders(<ClusterOverview cluster={replicas} now={NOW} timeZone="UTC" />, { resources: { en, zh } });
    expect(screen.getByText('2 live replicas share 3 accounts. This page was answered by panel-api-1.')).toBeTruthy();

    const leader = within(screen.getByRole('region', { name: 'Replica panel-api-0' }));
    expect(leader.getByText('Leader')).toBeTruthy();
    expect(leader.queryByText('This replica')).toBeNull();
    expect(leader.getByText('http://10.0.3.7:8000 · version 1.4.0')).toBeTruthy();
    expect(leader.getByText('5 seconds ago').getAttribute('title')).toBe('2026-11-28 04:59:55');
    expect(leader.getByText(/Accounts \(2\):/).textContent).toBe('Accounts (2): alice, bob');

    const asked = within(screen.getByRole('region', { name: 'Replica panel-api-1' }));
    expect(asked.getByText('This replica')).toBeTruthy();
    expect(asked.queryByText('Leader')).toBeNull();
    expect(asked.getByText(/Accounts \(0\):/).textContent).toBe('Accounts (0): None');

    // The account without an owner stands out, named.
    const between = screen.getByText('Accounts between owners: 1').closest('[role="alert"]') as HTMLElement;
    expect(within(between).getByText('carol')).toBeTruthy();
  });

  it('says in one line that SQLite runs one instance, without a replica list', () => {
    renderWithProviders(<ClusterOverview cluster={{ ...replicas, enabled: false, accounts: replicas.accounts.slice(0, 2) }} now={NOW} timeZone="UTC" />, { resources: { en, zh } });
    expect(screen.getByText('One instance (SQLite): it runs all 2 accounts itself; replicas need PostgreSQL.')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText(/between owners/)).toBeNull();
  });

  it('shows no highlight when every account has an owner', () => {
    renderWithProviders(<ClusterOverview cluster={{ ...replicas, accounts: replicas.accounts.slice(0, 2) }} now={NOW} timeZone="UTC" />, { resources: { en, zh } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('speaks Chinese, relative times included', () => {
    renderWithProviders(<ClusterOverview cluster={replicas} now={NOW} timeZone="UTC" />, { resources: { en, zh }, language: 'zh-CN' });
    expect(screen.getByText('2 个在线副本共享 3 个账号。本页由 panel-api-1 应答。')).toBeTruthy();
    const leader = within(screen.getByRole('region', { name: '副本 panel-api-0' }));
    expect(leader.getByText('主副本')).toBeTruthy();
    expect(leader.getByText('5秒钟前')).toBeTruthy();
    expect(screen.getByText('正在交接的账号：1 个')).toBeTruthy();
  });

  it('words relative times in the page language', () => {
    expect(formatRelativeTime('2026-11-28T04:59:55Z', NOW, 'en')).toBe('5 seconds ago');
    expect(formatRelativeTime('2026-11-28T04:57:00Z', NOW, 'en')).toBe('3 minutes ago');
    expect(formatRelativeTime('2026-11-28T05:00:00Z', NOW, 'en')).toBe('now');
    expect(formatRelativeTime('2026-11-28T04:59:55Z', NOW, 'zh-CN')).toBe('5秒钟前');
    expect(formatRelativeTime('not a time', NOW, 'en')).toBe('not a time');
  });
});
