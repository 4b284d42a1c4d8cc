import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCr26Rules, type Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { cadenceRule, heldCadence } from '../../../../src/domain/fedramp/evidence-cadence';
import { HISTORY_RULE, METHODS_RULE, FRESH_PACKAGE_RULE, PROSE_FACTS, releaseFact } from '../../../../src/domain/fedramp/prose-facts';
import { holdsRule, missingReliedRules, missingRuleLine, RELIED_RULES, reliedRule } from '../../../../src/domain/fedramp/relied-rules';
import { asksWebFrameworks, judgeRules, type JudgmentFacts } from '../../../../src/domain/fedramp/rule-judgments';

const ROOT = join(__dirname, '..', '..', '..', '..');
const RELEASES = ['2026.07.14.01', '2026.09.13.02', '2026.10.05.01'];
const release = (version: string): Cr26Rules => {
  const file = join(ROOT, '..', 'shared', 'reference', 'fedramp', `fedramp-consolidated-rules.${version}.json`);
  return readCr26Rules(JSON.parse(readFileSync(file, 'utf8')), file);
};
const official = new Map(RELEASES.map((v) => [v, release(v)]));
const latest = official.get('2026.10.05.01')!;
const lacking = (rules: Cr26Rules, ...ids: string[]): Cr26Rules => ({ ...rules, rules: rules.rules.filter((r) => !ids.includes(r.id)) });

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
/** A rule id written as a string literal (quoted or a template alone): `'VDR-TFR-MVX'`. KSI ids are not rules. */
const LITERAL = /['"`]((?!KSI-)[A-Z]{2,3}-[A-Z]{3}-[A-Z]{3})['"`]/g;

describe('RELIED_RULES: every rule id svc names in code', () => {
  const registered = new Set(RELIED_RULES.map((r) => r.id));
  const named = new Map<string, string[]>();
  for (const file of sources(join(ROOT, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(LITERAL)) named.set(m[1], [...(named.get(m[1]) ?? []), file.slice(ROOT.length + 1)]);
  }

  it('lists every rule id a string literal in src names (src/domain and src/application included)', () => {
    const unlisted = [...named].filter(([id]) => !registered.has(id)).map(([id, files]) => `${id} (${[...new Set(files)].join(', ')})`);
    expect(unlisted).toEqual([]);
    expect(named.size).toBeGreaterThanOrEqual(40);
  });

  it('lists only ids named in src, once each, in id order, each with what svc uses it for and does without it', () => {
    const ids = RELIED_RULES.map((r) => r.id);
    expect(ids.filter((id) => !named.has(id))).toEqual([]);
    expect(ids).toEqual([...new Set(ids)].sort());
    for (const r of RELIED_RULES) expect([r.id, r.uses.length > 0, r.without.length > 0]).toEqual([r.id, true, true]);
  });

  it('the constants come from it; an unlisted id is refused', () => {
    expect([HISTORY_RULE, METHODS_RULE, FRESH_PACKAGE_RULE].every((id) => registered.has(id))).toBe(true);
    expect(PROSE_FACTS.every((f) => registered.has(f.rule))).toBe(true);
    expect(reliedRule('FRC-CSX-MOT')).toBe('FRC-CSX-MOT');
    expect(() => reliedRule('FRC-CSX-XXX')).toThrow(
      'FRC-CSX-XXX is not in RELIED_RULES (src/domain/fedramp/relied-rules.ts): list it with what svc uses it for',
    );
  });

  it.each(RELEASES)('CR26 %s holds every one', (version) => {
    expect(missingReliedRules(official.get(version)!)).toEqual([]);
  });

  it('docs/fedramp.md lists them as the registry does', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'fedramp.md'), 'utf8');
    const table = docs.slice(docs.indexOf('| rule | svc relies on it for | without it |')).split('\n\n')[0].split('\n').slice(2);
    expect(table).toEqual(RELIED_RULES.map((r) => `| ${r.id} | ${r.uses} | ${r.without} |`));
  });
});

describe('missingReliedRules, and what svc does without a rule', () => {
  const without = lacking(latest, 'FRC-CSX-MOT', 'VDR-TFR-MVX', 'FRC-CSO-JSN');

  it('names the rules the release lacks, one line each', () => {
    expect(missingReliedRules(without).map((r) => missingRuleLine(without.info.version, r))).toEqual([
      'Not in CR26 2026.10.05.01: FRC-CSO-JSN (svc relies on it for the JSON documents it writes); without it, svc still validates them against the schemas but judges no rule by it',
      'Not in CR26 2026.10.05.01: FRC-CSX-MOT (svc relies on it for the KSI metrics history a class must supply); without it, history is not judged',
      'Not in CR26 2026.10.05.01: VDR-TFR-MVX (svc relies on it for the cadence of machine-based evidence for 20x); without it, machine-based evidence is not judged for freshness',
    ]);
    expect([holdsRule(without, 'FRC-CSX-MOT'), holdsRule(latest, 'FRC-CSX-MOT')]).toEqual([false, true]);
  });

  it('no cadence for a kind whose rule is missing (not an error); the held rule still gives one', () => {
    expect(cadenceRule('20x', 'machine')).toBe('VDR-TFR-MVX');
    expect(heldCadence(without, '20x', 'C', 'machine')).toBeUndefined();
    expect(heldCadence(without, '20x', 'C', 'non-machine')).toEqual({
      kind: 'non-machine',
      rule: 'VDR-TFR-NMV',
      force: 'MUST',
      every: { unit: 'months', num: 3 },
    });
  });

  it('releaseFact: nothing for a rule the release lacks; the structured field over the prose where a release gives one', () => {
    expect(releaseFact(without, 'FRC-CSX-MOT', 'C')).toBeUndefined();
    expect(releaseFact(latest, 'FRC-CSX-MOT', 'C')).toEqual({ rule: 'FRC-CSX-MOT', class: 'C', value: 6, unit: 'months' });
    const structured = {
      ...latest,
      rules: latest.rules.map((r) =>
        r.id === 'FRC-CSX-MOT'
          ? { ...r, varies_by_class: { ...r.varies_by_class, C: { force: 'MUST' as const, timeframe: { unit: 'months' as const, num: 12 } } } }
          : r,
      ),
    };
    expect(releaseFact(structured, 'FRC-CSX-MOT', 'C')).toEqual({ rule: 'FRC-CSX-MOT', class: 'C', value: 12, unit: 'months' });
    expect(releaseFact(latest, 'FRC-CSX-VVK', 'D')).toEqual({ rule: 'FRC-CSX-VVK', class: 'D', value: 4, unit: 'automated-methods' });
  });

  it('judgeRules makes no judgment whose rule the release lacks', () => {
    const none = { total: 1, fresh: 1, stale: 0, undated: 0 };
    const facts = (rules: Cr26Rules): JudgmentFacts => ({
      rules,
      type: '20x',
      class: 'C',
      run: { results: 1, asOf: '2026-12-09T00:00:00Z' },
      freshness: { machine: none, nonMachine: none },
      cadences: { nonMachine: { kind: 'non-machine', rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 } } },
      ksis: [{ id: 'KSI-IAM-APM', methods: 1, history: { since: '2026-12-09', required: { months: 6, from: '2026-06-09' }, met: false } }],
      metricDays: 1,
      validatedBy: 'FedRAMP-SDR.schema.json',
    });
    expect([...judgeRules(facts(latest)).keys()].sort()).toEqual(['FRC-CSO-JSN', 'FRC-CSX-MOT', 'SDR-CSX-KMT', 'VDR-TFR-NMV']);
    expect([...judgeRules(facts(lacking(latest, 'FRC-CSX-MOT', 'SDR-CSX-KMT', 'FRC-CSO-JSN'))).keys()]).toEqual(['VDR-TFR-NMV']);
  });
});

describe('FRC-CSO-JSN: public JSON for web frameworks, read from the statement', () => {
  it('2026.10.05.01 asks it; 2026.07.14.01 and 2026.09.13.02 do not', () => {
    expect(RELEASES.map((v) => asksWebFrameworks(official.get(v)!))).toEqual([false, false, true]);
    expect(asksWebFrameworks({})).toBe(false);
  });

  it('the judgment says how svc-api serves the public JSON where the release asks it', () => {
    const facts = (rules: Cr26Rules): JudgmentFacts => ({
      rules,
      type: '20x',
      class: 'B',
      run: { results: 0, asOf: '2026-12-09T00:00:00Z' },
      freshness: { machine: { total: 0, fresh: 0, stale: 0, undated: 0 }, nonMachine: { total: 0, fresh: 0, stale: 0, undated: 0 } },
      cadences: {},
      ksis: [],
      validatedBy: 'FedRAMP-SDR.schema.json',
    });
    expect(judgeRules(facts(official.get('2026.07.14.01')!)).get('FRC-CSO-JSN')?.statement).toBe(
      "svc validates every JSON document it writes against FedRAMP's schema (FedRAMP-SDR.schema.json).",
    );
    expect(judgeRules(facts(latest)).get('FRC-CSO-JSN')?.statement).toBe(
      "svc validates every JSON document it writes against FedRAMP's schema (FedRAMP-SDR.schema.json). svc-api serves the public JSON (GET /fedramp/public) with CORS (Access-Control-Allow-Origin: *, no credentials, an OPTIONS preflight), Content-Type: application/json and X-Content-Type-Options: nosniff (docs/api.md).",
    );
  });
});
