import { describe, expect, it } from 'vitest';
import { mcpCurl, prometheusScrape, tokenCurl } from './snippets';

describe('agent access and metrics examples', () => {
  it('the token example names the secret variable, never a value', () => {
    const text = tokenCurl('https://monitor.example.com/oauth/token', 'repo-monitor-agent');
    expect(text).toContain("-u 'repo-monitor-agent:'\"$MONITOR_OAUTH_CLIENT_SECRET\"");
    expect(text).toContain('grant_type=client_credentials');
    expect(mcpCurl('https://monitor.example.com/mcp')).toContain('"method":"tools/list"');
  });

  it('the scrape job uses the metrics URL and a token file only when a token is set', () => {
    const open = prometheusScrape('https://monitor.example.com:8443/metrics', false);
    expect(open).toContain("targets: ['monitor.example.com:8443']");
    expect(open).toContain('scheme: https');
    expect(open).not.toContain('authorization');
    expect(prometheusScrape('http://10.0.0.5:3000/metrics', true)).toContain('credentials_file: /etc/prometheus/repo-monitor-metrics-token');
  });
});
