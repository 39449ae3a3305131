/**
 * What the update check sends its one GET through: production passes fetch over the outbound
 * dispatcher (HTTPS_PROXY / NO_PROXY, see fetchThrough); tests one that reaches a local server.
 * Redirects are never followed (fetchLatestRelease asks for `redirect: 'manual'`): the request may
 * carry MONITOR_UPDATE_CHECK_TOKEN, which must not travel to wherever a 3xx points.
 */
export const UPDATE_CHECK_FETCH = Symbol('UPDATE_CHECK_FETCH');
