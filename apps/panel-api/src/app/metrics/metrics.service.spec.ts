import { accountLabelHash, PanelMetrics } from './metrics.service';

describe('PanelMetrics account labels', () => {
  it('labels keyword hits with a stable short hash of the account name by default', async () => {
    const metrics = new PanelMetrics({ metrics: { accountLabels: 'hash' } });
    metrics.keywordHitRecorded('alice');
    const text = await metrics.registry.metrics();
    expect(accountLabelHash('alice')).toBe('2bd806c97f0e');
    expect(text).toContain('panel_keyword_hits_total{account="2bd806c97f0e"} 1');
    expect(text).not.toContain('alice');
  });

  it('labels them with the name itself only when APP_METRICS_ACCOUNT_LABELS=name', async () => {
    const metrics = new PanelMetrics({ metrics: { accountLabels: 'name' } });
    metrics.keywordHitRecorded('alice');
    expect(await metrics.registry.metrics()).toContain('panel_keyword_hits_total{account="alice"} 1');
  });
});
