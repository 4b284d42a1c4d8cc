import fc from 'fast-check';
import { fold, likeMatcher } from '../../src/domain/cql/like-pattern';
import { SEED } from './bad-input';

/** The definition of LIKE, tried every way: exponential, so only for short inputs. */
function reference(pattern: string[], value: string[]): boolean {
  if (pattern.length === 0) return value.length === 0;
  const [p, ...rest] = pattern;
  if (p === '%') return value.some((_, i) => reference(rest, value.slice(i))) || reference(rest, []);
  return value.length > 0 && (p === '_' || fold(p) === fold(value[0])) && reference(rest, value.slice(1));
}

const alphabet = fc.constantFrom('a', 'A', 'b', 'ß', '😀', '.', '*');
const pattern = fc.array(fc.oneof(alphabet, fc.constantFrom('%', '_')), { maxLength: 8 }).map((cs) => cs.join(''));
const SWAPPED_CASE: Record<string, string> = { a: 'A', A: 'a', b: 'B' };
const value = fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join(''));

describe('likeMatcher', () => {
  it('agrees with the recursive definition of LIKE', () => {
    fc.assert(
      fc.property(pattern, value, (p, v) => {
        expect(likeMatcher(p)(v)).toBe(reference([...p], [...v]));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('matches a value against the value itself with every character made % or _', () => {
    fc.assert(
      fc.property(value, fc.array(fc.constantFrom('keep', '_', '%'), { maxLength: 10 }), (v, how) => {
        const p = [...v].map((c, i) => (how[i] === '_' ? '_' : how[i] === '%' ? '%' : (SWAPPED_CASE[c] ?? c))).join('');
        expect(likeMatcher(p)(v)).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
