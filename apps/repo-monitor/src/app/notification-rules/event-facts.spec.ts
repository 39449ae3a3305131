import { eventFacts } from './event-facts';

describe('eventFacts', () => {
  it('takes the family, action, labels, people, branch, workflow, conclusion and severity of an event', () => {
    expect(
      eventFacts({
        kind: 'pull_request.ready_for_review',
        repository: 'acme/api',
        actor: 'bob',
        details: { labels: ['bug', 3, ''], author: 'alice', branch: 'main', draft: true },
      }),
    ).toEqual({
      repository: 'acme/api',
      event: 'pull_request',
      action: 'ready_for_review',
      labels: ['bug'],
      author: 'alice',
      sender: 'bob',
      branch: 'main',
      workflow: null,
      conclusion: null,
      severity: null,
      draft: true,
    });
    expect(eventFacts({ kind: 'workflow_run.failure', repository: 'acme/api', actor: null, details: { workflow: 'CI', branch: 'dev', conclusion: 'failure' } })).toMatchObject({
      event: 'workflow_run',
      action: 'failure',
      workflow: 'CI',
      branch: 'dev',
      conclusion: 'failure',
      labels: [],
      draft: null,
    });
  });

  it('says nothing about draft for an issue, whose stored draft is always false', () => {
    expect(eventFacts({ kind: 'issues.opened', repository: null, actor: 'a', details: { draft: false } }).draft).toBeNull();
    expect(eventFacts({ kind: 'digest.daily', repository: null, actor: null, details: {} })).toMatchObject({ event: 'digest', action: 'daily', repository: null });
  });
});
