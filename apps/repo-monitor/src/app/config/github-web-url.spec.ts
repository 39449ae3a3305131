import { githubWebUrlFor, loadMonitorConfig } from './monitor-config';

describe('GitHub web address', () => {
  it('follows the API address unless MONITOR_VCS_WEB_URL is set', () => {
    expect(githubWebUrlFor('https://api.github.com')).toBe('https://github.com');
    expect(githubWebUrlFor('https://ghe.example.com/api/v3')).toBe('https://ghe.example.com');
    expect(githubWebUrlFor('https://ghe.example.com/api/v3/')).toBe('https://ghe.example.com');
    expect(githubWebUrlFor('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
  });

  it('is read once into the configuration', () => {
    const base = { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: 'file:/tmp/never-opened.db' };
    expect(loadMonitorConfig({ env: base }).github.webUrl).toBe('https://github.com');
    expect(loadMonitorConfig({ env: { ...base, MONITOR_VCS_API_URL: 'https://ghe.example.com/api/v3' } }).github.webUrl).toBe('https://ghe.example.com');
    expect(loadMonitorConfig({ env: { ...base, MONITOR_VCS_WEB_URL: 'https://github.example.org/' } }).github.webUrl).toBe('https://github.example.org');
  });
});
