import { describe, expect, it } from 'vitest';
import { apiCurl, mcpCurl, tokenCurl } from './snippets';

describe('agent access examples', () => {
  it('the token example names the secret variable, never a value', () => {
    const text = tokenCurl('https://monitor.example.com/oauth/token', 'repo-monitor-agent');
    expect(text).toContain("-u 'repo-monitor-agent:'\"$MONITOR_OAUTH_CLIENT_SECRET\"");
    expect(text).toContain('grant_type=client_credentials');
    expect(text).toContain('https://monitor.example.com/oauth/token');
  });

  it('the MCP and API examples send the token as a bearer header', () => {
    expect(mcpCurl('https://monitor.example.com/mcp')).toContain('"method":"tools/list"');
    expect(mcpCurl('https://monitor.example.com/mcp')).toContain('Authorization: Bearer $ACCESS_TOKEN');
    expect(apiCurl('https://monitor.example.com/api/v1')).toBe('curl -s https://monitor.example.com/api/v1/repositories -H "Authorization: Bearer $ACCESS_TOKEN"');
  });
});
