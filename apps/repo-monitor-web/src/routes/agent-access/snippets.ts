/**
 * The copyable examples of the agent access and metrics page. The secret and the metrics token are
 * never known to the console: the examples name environment variables the person fills in.
 */
export function tokenCurl(tokenEndpoint: string, clientId: string): string {
  return `curl -s -u '${clientId}:'"$MONITOR_OAUTH_CLIENT_SECRET" \\
  -d grant_type=client_credentials \\
  ${tokenEndpoint}
# {"access_token":"eyJ…","token_type":"Bearer","expires_in":3600,"scope":"read"}`;
}

export function mcpCurl(mcpEndpoint: string): string {
  return `curl -s ${mcpEndpoint} \\
  -H "Authorization: Bearer $ACCESS_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`;
}

export function apiCurl(apiBase: string): string {
  return `curl -s ${apiBase}/repositories -H "Authorization: Bearer $ACCESS_TOKEN"`;
}

/** A Prometheus scrape job for the monitor's /metrics (with the bearer token file when a token is set). */
export function prometheusScrape(metricsUrl: string, tokenSet: boolean): string {
  const url = new URL(metricsUrl);
  const lines = [
    'scrape_configs:',
    '  - job_name: repo-monitor',
    `    scheme: ${url.protocol.replace(':', '')}`,
    `    metrics_path: ${url.pathname}`,
    '    static_configs:',
    `      - targets: ['${url.host}']`,
  ];
  if (tokenSet) lines.push('    authorization:', '      type: Bearer', '      credentials_file: /etc/prometheus/repo-monitor-metrics-token');
  return lines.join('\n');
}
