import { plural } from '../../../../src/domain/encoding/plural';

describe('plural', () => {
  it('agrees with the count: one, none and many', () => {
    expect([0, 1, 2].map((n) => plural(n, 'KSI'))).toEqual(['0 KSIs', '1 KSI', '2 KSIs']);
    expect([1, 2].map((n) => plural(n, 'entry', 'entries'))).toEqual(['1 entry', '2 entries']);
  });
});
