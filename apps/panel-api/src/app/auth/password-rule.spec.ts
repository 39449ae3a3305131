import { randomPassword } from '@shared/crypto';
import { GENERATED_PASSWORD_LENGTH } from './admin-bootstrap.service';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordRuleViolation } from './password-rule';

describe('the admin password rule (the same as the console’s)', () => {
  it('asks 12 to 256 characters, like repo-monitor', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(passwordRuleViolation('x'.repeat(11))).toBe('password must be at least 12 characters');
    expect(passwordRuleViolation('x'.repeat(12))).toBeUndefined();
    expect(passwordRuleViolation('x'.repeat(PASSWORD_MAX_LENGTH))).toBeUndefined();
    expect(passwordRuleViolation('x'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe('password must be at most 256 characters');
  });

  it('is met by the password generated at first start', () => {
    for (let i = 0; i < 20; i++) expect(passwordRuleViolation(randomPassword(GENERATED_PASSWORD_LENGTH))).toBeUndefined();
  });
});
