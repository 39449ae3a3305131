import { credentialOrigin, isNewSecretDestination, secretsLeftAtOldDestination } from './secret-destinations';
import { SettingsPatch } from './settings.types';

describe('secretsLeftAtOldDestination', () => {
  const stored: Partial<Record<keyof SettingsPatch, unknown>> = {
    webdav_url: 'https://dav.example.test/remote.php/dav',
    webdav_password: 'dav-secret',
    ai_base_url: 'https://api.example.test/v1',
    ai_api_key: 'sk-secret',
  };
  const lookup = (field: keyof SettingsPatch) => stored[field];

  it('names the secret when its URL moves to another server and the secret is kept', () => {
    expect(secretsLeftAtOldDestination(lookup, { webdav_url: 'https://evil.example.test/dav' })).toEqual([
      expect.stringMatching(/^webdav_password must be given again because webdav_url now points to another server/),
    ]);
    expect(secretsLeftAtOldDestination(lookup, { ai_base_url: 'http://api.example.test/v1' })).toEqual([expect.stringMatching(/^ai_api_key /)]);
  });

  it('accepts the move when the secret is given anew or cleared', () => {
    expect(secretsLeftAtOldDestination(lookup, { webdav_url: 'https://evil.example.test/dav', webdav_password: 'new' })).toEqual([]);
    expect(secretsLeftAtOldDestination(lookup, { webdav_url: 'https://evil.example.test/dav', webdav_password: null })).toEqual([]);
  });

  it('accepts another path on the same origin, an unchanged URL, a cleared URL and no stored secret', () => {
    expect(secretsLeftAtOldDestination(lookup, { webdav_url: 'https://DAV.example.test:443/other' })).toEqual([]);
    expect(secretsLeftAtOldDestination(lookup, { ai_base_url: null })).toEqual([]);
    expect(secretsLeftAtOldDestination(lookup, { timezone: 'UTC' })).toEqual([]);
    const noSecrets = (field: keyof SettingsPatch) => (field.endsWith('_url') ? stored[field] : null);
    expect(secretsLeftAtOldDestination(noSecrets, { webdav_url: 'https://evil.example.test/' })).toEqual([]);
  });

  it('treats setting a URL where none was stored as a new destination for a stored secret', () => {
    const urlCleared = (field: keyof SettingsPatch) => (field === 'webdav_url' ? null : stored[field]);
    expect(secretsLeftAtOldDestination(urlCleared, { webdav_url: 'https://evil.example.test/' })).toHaveLength(1);
  });

  it('compares origins', () => {
    expect(credentialOrigin('https://a.example.test:443/x')).toBe('https://a.example.test');
    expect(isNewSecretDestination('https://a.example.test/x', 'https://a.example.test:8443/x')).toBe(true);
    expect(isNewSecretDestination('https://a.example.test/x', null)).toBe(false);
  });
});
