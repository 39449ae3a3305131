import { screen } from '@testing-library/react';
import { jsonResponse, renderWithProviders } from '@shared/web-ui/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { DashboardPage } from './dashboard-page';

const resources = { en, zh };

function dashboard(overrides: Record<string, unknown> = {}) {
  const days = Array.from({ length: 14 }, (_, index) => `2026-11-${String(12 + index).padStart(2, '0')}`);
  return {
    time_zone: 'Asia/Shanghai',
    generated_at: '2026-11-25T16:30:00Z',
    checklist: [
      { key: 'github_app_credentials', done: true },
      { key: 'inbound_webhook_secret', done: true },
      { key: 'installation', done: false },
      { key: 'repository', done: false },
      { key: 'channel_tested', done: false },
    ],
    setup_complete: false,
    tiles: { repositories: 3, installations: 1, open_issues: 4, open_pull_requests: 2, open_security_alerts: 0, failed_workflow_runs: 1, enabled_channels: 1 },
    events_per_day: days.map((date) => ({ date, total: 1, by_category: { issue: 1 } })),
    notifications_per_day: days.map((date) => ({ date, sent: 1, failed: 0 })),
    outbox: { pending: 0, sending: 0, dead: 2, oldest_pending_at: null, oldest_pending_age_seconds: null },
    recent_events: [
      { id: 1, repository_id: 1, kind: 'issue_opened', category: 'issue', title: '<img src=x onerror=alert(1)> title', body_text: '', html_url: 'https://github.com/acme/api/issues/1', actor: 'a', fingerprint: 'f', notified: true, notification: 'failing', occurred_at: '2026-11-25T16:00:00Z', created_at: '2026-11-25T16:00:00Z' },
    ],
    recent_deliveries: [],
    recent_notifications: [],
    ...overrides,
  };
}

describe('DashboardPage', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('links each unfinished checklist item to its fix, shows times in the configured zone and GitHub text as text', async () => {
    fetchMock.mockResolvedValue(jsonResponse(dashboard()));
    renderWithProviders(<DashboardPage />, { resources, path: '/dashboard' });
    expect(await screen.findByRole('link', { name: 'Set up: At least one repository watched' })).toHaveAttribute('href', '/repositories');
    expect(screen.getByRole('link', { name: 'Set up: A notification channel that passed its test' })).toHaveAttribute('href', '/channels');
    expect(screen.getByRole('link', { name: 'Set up: The App installed on an account' })).toHaveAttribute('href', '/github-app');
    expect(screen.queryByRole('link', { name: /Set up: GitHub App credentials/ })).toBeNull();
    expect(screen.getByRole('link', { name: '<img src=x onerror=alert(1)> title' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(document.querySelector('img[src="x"]')).toBeNull();
    // 16:00 UTC is past midnight in Shanghai.
    expect(screen.getByText(/2026-11-26 00:00:00/)).toBeInTheDocument();
    expect(screen.getByText('Dead: 2')).toBeInTheDocument();
    expect(screen.getByText('No deliveries from GitHub yet.')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Events per day (14 days)' })).toBeInTheDocument();
  });

  it('hides the checklist once setup is complete', async () => {
    fetchMock.mockResolvedValue(jsonResponse(dashboard({ setup_complete: true, checklist: [] })));
    renderWithProviders(<DashboardPage />, { resources, path: '/dashboard' });
    await screen.findByText('Open issues');
    expect(screen.queryByText('Getting started')).toBeNull();
  });

  it('says "no data" for a chart whose 14 days are all zero, and gives a chart with data its value axis', async () => {
    const days = Array.from({ length: 14 }, (_, index) => `2026-11-${String(12 + index).padStart(2, '0')}`);
    fetchMock.mockResolvedValue(jsonResponse(dashboard({ setup_complete: true, checklist: [], notifications_per_day: days.map((date) => ({ date, sent: 0, failed: 0 })), events_per_day: days.map((date, index) => ({ date, total: index, by_category: { issue: index } })) })));
    renderWithProviders(<DashboardPage />, { resources, path: '/dashboard' });
    expect(await screen.findByText('No notifications in these 14 days')).toBeInTheDocument();
    expect(screen.queryByText('No events in these 14 days')).toBeNull();
    // The busiest day has 13 events: the axis tops at 20, halved at 10.
    expect(screen.getByText('20')).toBeInTheDocument();
    expect(screen.getAllByText('10')).toHaveLength(2); // the axis, and day 10 in the screen reader's table
  });

  it('shows the service error with a retry', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error_code: 'internal', message: 'database unavailable' }, 500));
    renderWithProviders(<DashboardPage />, { resources, path: '/dashboard' });
    expect(await screen.findByText('database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('niceCeiling', () => {
  it('rounds the axis up to 2, 4 or 10 times a power of ten, whose half is whole', async () => {
    const { niceCeiling } = await import('./bar-chart');
    expect([0, 1, 2, 3, 5, 10, 11, 23, 99, 101].map(niceCeiling)).toEqual([2, 2, 2, 4, 10, 10, 20, 40, 100, 200]);
  });
});
