import { agentMayRead } from './agent-read-scope';

describe('agentMayRead', () => {
  it.each(['/api/v1/repositories', '/api/v1/repositories/', '/api/v1/repositories/12?x=1', '/api/v1/events?page=2', '/api/v1/ai/reviews/5', '/api/v1/system/version'])(
    'lets agents read %s',
    (url) => expect(agentMayRead(url)).toBe(true),
  );

  it.each([
    '/api/v1/audit-log',
    '/api/v1/notification-channels',
    '/api/v1/notification-channels/3',
    '/api/v1/notifications/outbox',
    '/api/v1/ai/config',
    '/api/v1/ai/review-settings',
    '/api/v1/github/app',
    '/api/v1/system/settings',
    '/api/v1/auth/session',
    '/api/v1/repositories-secret',
    '/api/v1/eventsx',
    '/api/v1/events/12/routing',
    '/api/v1/notification-rules',
  ])('keeps agents out of %s', (url) => expect(agentMayRead(url)).toBe(false));
});
