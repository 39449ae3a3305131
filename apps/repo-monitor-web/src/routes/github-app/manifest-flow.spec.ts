import { describe, expect, it } from 'vitest';
import { manifestOutcome } from './manifest-flow';

describe('the manifest flow outcome in the URL', () => {
  it('reads a created App and a known or unknown failure', () => {
    expect(manifestOutcome(new URLSearchParams('manifest=created&app_slug=acme-monitor'))).toEqual({ kind: 'created', slug: 'acme-monitor' });
    expect(manifestOutcome(new URLSearchParams('manifest=error&reason=state_expired'))).toEqual({ kind: 'error', reason: 'state_expired' });
    expect(manifestOutcome(new URLSearchParams('manifest=error&reason=<script>'))).toEqual({ kind: 'error', reason: 'unknown' });
    expect(manifestOutcome(new URLSearchParams(''))).toBeNull();
  });
});
