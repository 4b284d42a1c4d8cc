import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CR26_CLASSES, readCr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { PROSE_FACTS, proseFact, proseFactForce, type ProseFactUnit } from '../../../../src/domain/fedramp/prose-facts';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const FILE = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'reference', 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json');
const official = readCr26Rules(JSON.parse(readFileSync(FILE, 'utf8')), FILE);

/** How each unit is worded in FedRAMP's statements; the captured group is the number. */
const WORDING: Record<ProseFactUnit, RegExp> = {
  'automated-methods': /\bat least (\d+) automated methods?\b/,
  months: /\bover at least the past (\d+) months?\b/,
  'cadence-months': /\bat least once every (\d+) months?\b/,
  'fresh-days': /\bwithin the previous (\d+) days\b/,
  'n-rating-above': /\bN-rating > (\d)\b/,
  'n-rating-equals': /\bN-rating = (\d)\b/,
};

/** The sentence a fact is stated in: the class's, or the rule's own for a fact of every class. */
const sentence = (rule: string, cls: (typeof CR26_CLASSES)[number] | undefined): string | undefined =>
  cls === undefined ? official.statements?.[rule]?.text : official.statements?.[rule]?.classes?.[cls];

describe('PROSE_FACTS against the official 2026.07.14.01 file', () => {
  it.each(PROSE_FACTS.map((f) => [f.rule, f.class ?? 'any', f.value, f.unit] as const))('%s Class %s: %d %s is in the statement', (rule, cls, value, unit) => {
    const statement = sentence(rule, cls === 'any' ? undefined : cls);
    expect(statement).toBeDefined();
    expect(WORDING[unit].exec(statement!)?.[1]).toBe(String(value));
  });

  it('leaves out no class whose statement names a number, for every rule the table covers', () => {
    for (const rule of new Set(PROSE_FACTS.filter((f) => f.class !== undefined).map((f) => f.rule))) {
      const unit = PROSE_FACTS.find((f) => f.rule === rule)!.unit;
      for (const cls of CR26_CLASSES) {
        const statement = official.statements?.[rule]?.classes?.[cls] ?? '';
        expect([cls, WORDING[unit].test(statement)]).toEqual([cls, proseFact(rule, cls) !== undefined]);
      }
    }
  });

  it("gives a fact of the rule's own statement for every class (VDR-TFR-NMV), whose statement varies by no class", () => {
    expect(official.statements?.['VDR-TFR-NMV']?.classes).toBeUndefined();
    expect(CR26_CLASSES.map((c) => proseFact('VDR-TFR-NMV', c)?.value)).toEqual([3, 3, 3, 3]);
  });

  it('reads the force from the rules data, not the table', () => {
    const data = builtInRules();
    expect(CR26_CLASSES.map((c) => proseFactForce(data, 'FRC-CSX-VVK', c))).toEqual(['MAY', 'SHOULD', 'MUST', 'MUST']);
    expect(CR26_CLASSES.map((c) => proseFactForce(data, 'FRC-CSX-MOT', c))).toEqual(['MAY', 'SHOULD', 'MUST', 'MUST']);
    expect(CR26_CLASSES.map((c) => proseFactForce(data, 'VDR-TFR-NMV', c))).toEqual(['MUST', 'MUST', 'MUST', 'MUST']);
    expect(proseFactForce(data, 'NOT-A-RULE', 'B')).toBeUndefined();
  });
});
