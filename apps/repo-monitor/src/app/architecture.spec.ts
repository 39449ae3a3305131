import { flowViolations, folderCycleCheck } from '@shared/testing';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Feature folders depend on each other one way (webhooks -> processing -> records -> notifications;
// see app.module.ts): a cycle between folders means neither can be read, tested or moved without the
// other. None is left; the list of known cycle edges may only shrink.
const knownCycleEdges: string[] = [];

describe('the folders of the source tree', () => {
  const check = folderCycleCheck(join(__dirname, '..'), knownCycleEdges, { compositionFiles: ['database/entities.ts'] });
  it('import each other without a new cycle (each edge named with the imports that make it)', () => expect(check.unexpected).toEqual([]));
  it('still have every known cycle edge (remove one from the list once it is gone)', () => expect(check.present).toEqual(knownCycleEdges));

  // The pipeline's folders from upstream to downstream (deliveries come from GitHub's webhooks or
  // from polling it); a folder may import its own stage and the ones after it, never one before.
  // Infrastructure lives in database/ and common/, outside the flow.
  const PIPELINE = [
    ['webhooks', 'github', 'redelivery'],
    ['processing'],
    ['events', 'repositories', 'installations', 'work-items', 'workflow-runs', 'security-alerts'],
    ['notifications'],
    ['outbox', 'notification-channels'],
  ];
  it('follow the flow webhooks -> processing -> records -> notifications (each import against it named)', () =>
    expect(flowViolations(join(__dirname, '..'), PIPELINE, { compositionFiles: ['database/entities.ts'] })).toEqual([]));
});

// SQL lives in one repository per aggregate (`<feature>/<aggregate>.repository.ts`); a controller
// asks those, so the console's REST lists and the agents' MCP tools share one query and one mapping.
describe('the controllers', () => {
  const controllers = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.controller.ts'))
    .map((file) => join(__dirname, file));

  it('are found', () => {
    expect(controllers.length).toBeGreaterThan(20);
  });

  it('touch no DataSource, EntityManager, TypeORM repository or DatabaseWork', () => {
    const offenders = controllers
      .filter((file) => /from '(typeorm|@nestjs\/typeorm)'|database-work'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(__dirname, file));
    expect(offenders).toEqual([]);
  });
});
