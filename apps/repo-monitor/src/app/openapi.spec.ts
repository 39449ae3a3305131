import { redoclyLint, validateOpenApi } from '@shared/testing';
import { join } from 'node:path';

// The committed document (`npm run openapi` writes it; `npm run openapi -- --check` proves it is the code's).
const DOCUMENT = join(__dirname, '../../openapi.json');

describe('the committed OpenAPI document', () => {
  it('is valid for @apidevtools/swagger-parser', () => {
    expect(() => validateOpenApi(DOCUMENT)).not.toThrow();
  });

  it('passes redocly lint with the recommended rules without an error', () => {
    const problems = redoclyLint(DOCUMENT);
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });
});
