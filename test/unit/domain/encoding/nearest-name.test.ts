import { nearestName } from '../../../../src/domain/encoding/nearest-name';

describe('nearestName', () => {
  const commands = ['fedramp readiness', 'fedramp rules', 'conmon process', 'conmon dashboard'];

  it('finds the name one or two edits away', () => {
    expect(nearestName('fedramp readines', commands)).toBe('fedramp readiness');
    expect(nearestName('conmon proces', commands)).toBe('conmon process');
    expect(nearestName('conmon porcess', commands)).toBe('conmon process');
    expect(nearestName('ot', ['out', 'to', 'json'])).toBe('out');
  });

  it('suggests nothing farther than a third of the typed length, for a whole-word change, or for the name itself', () => {
    expect(nearestName('fedramp package', commands)).toBeUndefined();
    expect(nearestName('x', ['n', 'json'])).toBeUndefined();
    expect(nearestName('fedramp rules', commands)).toBeUndefined();
  });

  it('takes the first of equally near names', () => {
    expect(nearestName('ab', ['ax', 'bb'])).toBe('ax');
  });
});
