import { RepositoryEntity } from '../repositories/repository.entity';
import { eventFingerprint, repositoryWants } from './event-recorder';

function repository(overrides: Partial<RepositoryEntity> = {}): RepositoryEntity {
  return Object.assign(new RepositoryEntity(), {
    status: 'active',
    notifyIssues: true,
    notifyPullRequests: true,
    notifyWorkflowRuns: true,
    notifySecurityAlerts: true,
    notifyReleases: true,
    notifyStars: true,
    ...overrides,
  });
}

describe('eventFingerprint', () => {
  it('is the SHA-256 hex of the identity: the same change always gives the same fingerprint', () => {
    expect(eventFingerprint('issues:acme/api:7:opened:2024-05-01T10:00:00Z')).toBe(eventFingerprint('issues:acme/api:7:opened:2024-05-01T10:00:00Z'));
    expect(eventFingerprint('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(eventFingerprint('issues:acme/api:7:opened:a')).not.toBe(eventFingerprint('issues:acme/api:7:opened:b'));
  });
});

describe('repositoryWants', () => {
  it.each([
    ['issues.opened', 'notifyIssues'],
    ['pull_request.merged', 'notifyPullRequests'],
    ['workflow_run.failure', 'notifyWorkflowRuns'],
    ['dependabot_alert.created', 'notifySecurityAlerts'],
    ['code_scanning_alert.fixed', 'notifySecurityAlerts'],
    ['secret_scanning_alert.publicly_leaked', 'notifySecurityAlerts'],
    ['release.published', 'notifyReleases'],
    ['star.created', 'notifyStars'],
    ['watch.started', 'notifyStars'],
  ] as const)('%s follows %s', (kind, toggle) => {
    expect(repositoryWants(repository(), kind)).toBe(true);
    expect(repositoryWants(repository({ [toggle]: false }), kind)).toBe(false);
  });

  it('lets nothing through for an archived or removed repository', () => {
    expect(repositoryWants(repository({ status: 'archived' }), 'issues.opened')).toBe(false);
    expect(repositoryWants(repository({ status: 'removed' }), 'release.published')).toBe(false);
  });

  it('lets events without a repository through', () => {
    expect(repositoryWants(null, 'release.published')).toBe(true);
  });
});
