import { ERROR_STATUS, MonitorError } from './monitor-error';

describe('MonitorError codes', () => {
  it('are exactly the codes of repo-monitor-details.md (Errors), each with its status; 413 is validation_failed', () => {
    expect(ERROR_STATUS).toEqual({
      unauthorized: 401,
      forbidden: 403,
      invalid_credentials: 401,
      rate_limited: 429,
      validation_failed: 400,
      not_found: 404,
      conflict: 409,
      csrf_failed: 403,
      internal_error: 500,
      service_unavailable: 503,
      encryption_unavailable: 503,
      ai_field_locked: 409,
      github_field_locked: 409,
      github_app_not_configured: 409,
      invalid_signature: 401,
      webhook_not_configured: 503,
    });
  });

  it('answers the status of its code with the one error body', () => {
    const error = new MonitorError('rate_limited', 'slow down', { retry_after_seconds: 3 });
    expect(error.getStatus()).toBe(429);
    expect(error.getResponse()).toEqual({ error_code: 'rate_limited', message: 'slow down', details: { retry_after_seconds: 3 } });
  });
});
