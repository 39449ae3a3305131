/**
 * The copyable examples of the agent access page. The client secret is never known to the console:
 * the examples name the environment variable that holds it.
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
