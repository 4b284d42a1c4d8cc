import type { CqlRow } from '../../../src/domain/cql/cql-fields';
import { evaluateQuery } from '../../../src/domain/cql/evaluate-query';
import { likeMatcher } from '../../../src/domain/cql/like-pattern';
import { ChevrotainQueryParser } from '../../../src/infrastructure/cql/chevrotain-query-parser';

const parser = new ChevrotainQueryParser();
const NOW = new Date('2026-11-20T00:00:00Z');
const withTitle = (ksi_id: string, title: string): CqlRow => ({ ksi_id, status: 'FAIL', area: 'IA', family: 'IA', title, controls: [], input: 'a.json' });

describe('CQL LIKE', () => {
  it("answers '%a%a%a%b' over a 3,000-character title (a RegExp backtracks on it for ever)", () => {
    const rows = [withTitle('KSI-IA-01', 'a'.repeat(3000)), withTitle('KSI-IA-02', `${'a'.repeat(2999)}b`), withTitle('KSI-IA-03', `${'a'.repeat(2999)}B`)];
    const answer = evaluateQuery(parser.parse("FROM results WHERE title LIKE '%a%a%a%b' SELECT ksi_id"), rows, NOW);
    expect(answer.rows).toEqual([['KSI-IA-02'], ['KSI-IA-03']]);
  });

  it('matches the whole value: % any run, _ one character (a code point), the rest itself, case-insensitively', () => {
    const cases: [string, string, boolean][] = [
      ['', '', true],
      ['', 'a', false],
      ['%', '', true],
      ['_', '', false],
      ['_', '😀', true],
      ['a_c', 'a😀c', true],
      ['KSI-%-02', 'ksi-ia-02', true],
      ['KSI-%-02', 'KSI-IA-021', false],
      ['%.%', 'ac-2', false],
      ['ac-2.%', 'AC-2.1', true],
      ['a%b%c', 'abxbc', true],
      ['a%b%c', 'acb', false],
      ['%%a', 'ba', true],
      ['(x)+[y]*', '(X)+[Y]*', true],
      ['ß', 'SS', false],
    ];
    expect(cases.map(([pattern, value]) => likeMatcher(pattern)(value))).toEqual(cases.map(([, , expected]) => expected));
  });
});
