import { screen } from '@testing-library/react';
import { renderWithProviders } from '@shared/web-ui/testing';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../i18n/resources';
import { manifestOutcome, ManifestOutcome } from './manifest-flow';

const resources = { en, zh };
const HOSTILE = '/github-app?manifest=created&app_slug=Your%20account%20is%20locked%2C%20call%20%2B1-555-0100';

describe('the manifest flow outcome in the URL', () => {
  it('reads a created App (never its slug) and a known or unknown failure', () => {
    expect(manifestOutcome(new URLSearchParams('manifest=created&app_slug=acme-monitor'))).toEqual({ kind: 'created' });
    expect(manifestOutcome(new URLSearchParams('manifest=error&reason=state_expired'))).toEqual({ kind: 'error', reason: 'state_expired' });
    expect(manifestOutcome(new URLSearchParams('manifest=error&reason=<script>'))).toEqual({ kind: 'error', reason: 'unknown' });
    expect(manifestOutcome(new URLSearchParams(''))).toBeNull();
  });
});

describe('ManifestOutcome', () => {
  it('shows the slug the service has stored, not the one in the URL', () => {
    renderWithProviders(<ManifestOutcome settings={{ configured: true, app_slug: 'acme-monitor' }} />, { resources, path: '/github-app', url: HOSTILE });
    expect(screen.getByRole('status')).toHaveTextContent('GitHub created acme-monitor and its credentials are saved.');
    expect(document.body).not.toHaveTextContent(/locked|555/);
  });

  it('shows no green notice when the service has no App configured, whatever the URL says', () => {
    renderWithProviders(<ManifestOutcome settings={{ configured: false, app_slug: null }} />, { resources, path: '/github-app', url: HOSTILE });
    expect(screen.queryByText('GitHub App created')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('The service has no GitHub App saved, so nothing was created here.');
    expect(document.body).not.toHaveTextContent(/locked|555/);
  });

  it('shows nothing until the service has answered', () => {
    renderWithProviders(<ManifestOutcome settings={undefined} />, { resources, path: '/github-app', url: HOSTILE });
    expect(screen.queryByRole('status')).toBeNull();
    expect(document.body).not.toHaveTextContent(/locked|555/);
  });
});
