import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cr26Shapes, FIRST_SHAPES } from '../../../../src/domain/fedramp/schema-shapes';
import { FEDRAMP_SCHEMA_GENERATIONS } from '../../../support/fedramp-schemas';

const read = (dir: string, stem: string) => JSON.parse(readFileSync(join(dir, `fedramp-${stem}-schema-2026-06-24.json`), 'utf8')) as unknown;
const shapesOf = (dir: string) =>
  cr26Shapes({ incident: read(dir, 'incident-report'), cpo: read(dir, 'certification-package-overview'), definitions: read(dir, 'common-definitions') });

describe('cr26Shapes: the document shapes each FedRAMP schema generation declares, read from its bytes', () => {
  it('reads each generation in ../shared: the first as FIRST_SHAPES; 2026-09-17 adds the object potentialImpact, Remediated and painReductionEvents; 2026-10-08 the CPO advisors', () => {
    expect(FEDRAMP_SCHEMA_GENERATIONS.map(shapesOf)).toEqual([
      FIRST_SHAPES,
      { potentialImpact: 'object', remediated: true, reductionEvents: true, ratings: [1, 2, 3, 4, 5], advisors: false },
      { potentialImpact: 'object', remediated: true, reductionEvents: true, ratings: [1, 2, 3, 4, 5], advisors: true },
    ]);
  });

  it('takes what a schema declares, whatever its file name or date: an nRating that adds 0 offers N0; a schema missing leaves the first shapes', () => {
    const newest = FEDRAMP_SCHEMA_GENERATIONS[2];
    const definitions = read(newest, 'common-definitions') as { $defs: { nRating: { enum: number[] } } };
    definitions.$defs.nRating.enum = [0, 1, 2, 3, 4, 5];
    expect(cr26Shapes({ definitions }).ratings).toEqual([0, 1, 2, 3, 4, 5]);
    expect(cr26Shapes({})).toEqual(FIRST_SHAPES);
    expect(cr26Shapes({ incident: 'not a schema', cpo: null, definitions: [] })).toEqual(FIRST_SHAPES);
  });
});
