import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withAliases } from '../../../../src/domain/fedramp/cr26-aliases';
import { readCr26Rules, type Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import { InvalidInputError } from '../../../../src/domain/errors';
import { parseNRating, readEvaluationPolicy } from '../../../../src/domain/vulnerabilities/evaluation-policy';
import { judgeGroup, type Evaluation } from '../../../../src/domain/vulnerabilities/lifecycle';
import { painRatings, requireOffered } from '../../../../src/domain/vulnerabilities/pain-ratings';
import { buildVdr, unwritableRatingsWarning, vulnerabilityDetail, type VulnerabilityGroup } from '../../../../src/domain/vulnerabilities/vulnerability-reports';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { REFERENCE } from '../../../support/run-svc';

const FEDRAMP = join(REFERENCE, 'fedramp');
const release = (version: string): Cr26Rules => {
  const file = `fedramp-consolidated-rules.${version}.json`;
  return withAliases(readCr26Rules(JSON.parse(readFileSync(join(FEDRAMP, file), 'utf8')), file), builtInRules());
};
const R0714 = release('2026.07.14.01');
const R1005 = release('2026.10.05.01');
const without = (rules: Cr26Rules, change: (r: Cr26Rules['rules'][number]) => Cr26Rules['rules'][number] | undefined): Cr26Rules => ({
  ...rules,
  rules: rules.rules.flatMap((r) => (r.id === 'VER-EVA-EPA' ? [change(r)].filter((x) => x !== undefined) : [r])),
});
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe("the N-ratings a release offers, from VER-EVA-EPA's bullets", () => {
  it('2026.07.14.01 offers N1 to N5; 2026.10.05.01 (and the bundled data built from it) adds N0', () => {
    expect(painRatings(R0714)).toEqual({ ratings: [1, 2, 3, 4, 5], release: 'CR26 2026.07.14.01' });
    expect(painRatings(builtInRules())).toEqual({ ratings: [0, 1, 2, 3, 4, 5], release: 'CR26 2026.10.05.01' });
    expect(painRatings(R1005)).toEqual({ ratings: [0, 1, 2, 3, 4, 5], release: 'CR26 2026.10.05.01' });
    expect(R1005.rules.find((r) => r.id === 'VER-EVA-EPA')!.bullet_labels).toEqual(['N0', 'N1', 'N2', 'N3', 'N4', 'N5']);
  });

  it('falls back to N1 to N5 and says which rule is missing, or that its bullets name no rating', () => {
    expect(painRatings(without(R1005, () => undefined))).toEqual({
      ratings: [1, 2, 3, 4, 5],
      release: 'CR26 2026.10.05.01',
      fallback: 'has no rule VER-EVA-EPA',
    });
    const unlabelled = without(R1005, (r) => ({ ...r, bullet_labels: [] }));
    expect(painRatings(unlabelled).fallback).toBe("VER-EVA-EPA's bullets name no N-rating (**N<k>**)");
    expect(refusal(() => requireOffered(0, painRatings(without(R1005, () => undefined)), '--n'))).toBe(
      '--n 0: CR26 2026.10.05.01 has no rule VER-EVA-EPA, so svc rates N1 to N5; use --n 1, or a release that offers N0 (SVC_FEDRAMP_RULES)',
    );
  });

  it('accepts N0 where the release offers it and refuses it, naming release, rule and fix, where it does not', () => {
    expect(requireOffered(0, painRatings(R1005), '--n')).toBe(0);
    expect(refusal(() => requireOffered(0, painRatings(R0714), '--n'))).toBe(
      '--n 0: CR26 2026.07.14.01 rates N1 to N5 (VER-EVA-EPA); use --n 1, or a release that offers N0 (SVC_FEDRAMP_RULES)',
    );
    expect(parseNRating('N0', 0)).toBe(0);
    expect(parseNRating('0', 0)).toBe(0);
    expect(parseNRating('N0')).toBeUndefined(); // IEC-CSO-EFI's incident ratings stay N1 to N5
    expect(parseNRating('', 0)).toBeUndefined();
    const fail = (path: string, problem: string): never => {
      throw new Error(`${path}: ${problem}`);
    };
    expect(readEvaluationPolicy({ n_by_severity: { info: 'N0' } }, fail).n_by_severity.info).toBe(0);
  });
});

describe('an N0 group (CR26 2026.10.05.01)', () => {
  const person = (at: string, e: Partial<Evaluation>): Evaluation => ({ at, by: 'ada@example.com', reason: 'reviewed', ...e });
  const group: VulnerabilityGroup = {
    finding_id: 'CVE-2026-0100',
    tracking_id: 'VG-cve2026010000000',
    title: 'Title',
    sources: ['Trivy'],
    resources: ['registry.example.com/app:1.4'],
    first_detected: '2026-12-08T06:00:00Z',
    last_seen: '2027-01-14T06:00:00Z',
    evaluations: [
      person('2026-12-09T00:00:00Z', { irv: true, lev: true, n: 5 }),
      person('2026-12-10T00:00:00Z', { mitigated: 'partial', n: 0, reason: 'service disabled in every tenant' }),
    ],
  };
  const judgment = judgeGroup(group, R1005, 'D', new Date('2027-06-01T00:00:00Z'));

  it('has no mitigation due date (VDR-TFR-PVR has no N0 cell) and is no reportable incident', () => {
    expect(judgment).toMatchObject({ n: 0, state: 'mitigated', incident: { internet: false, other: false }, overdue: { is: false } });
    expect(judgment.due.mitigation).toBeUndefined();
    expect(judgment.reductions.map((r) => r.to)).toEqual([5, 0]);
  });

  it('is listed in the VDR with N0 said in words, no integer the schema cannot carry, and valid against all three schema generations', () => {
    const offers = { remediated: true, reductionEvents: true, release: 'CR26 2026.10.05.01' };
    const detail = vulnerabilityDetail(group, judgment, offers);
    expect(detail.potentialAgencyImpact).toBe(
      "N0: service disabled in every tenant (N0, VER-EVA-EPA 2026.10.05.01, is not in the schema's N-ratings N1 to N5: no currentRating, no reduction event to N0 written)",
    );
    expect(detail.currentRating).toBeUndefined();
    expect(detail.painReductionEvents).toBeUndefined();
    expect(unwritableRatingsWarning([judgment], offers)).toBe(
      "N0 (VER-EVA-EPA, CR26 2026.10.05.01) is not among the schema's N-ratings N1 to N5: 1 vulnerability carries it in potentialAgencyImpact only (no currentRating, targetRating or reduction event to it)",
    );
    const vdr = buildVdr({
      packageUri: 'https://trust.example.com/fedramp/cpo.json',
      from: '2026-12-01T00:00:00Z',
      to: '2027-01-14T23:59:59Z',
      groups: [{ group, judgment }],
      offers,
    });
    for (const generation of ['cr26-schemas', 'cr26-schemas-2026-09-17', 'cr26-schemas-2026-10-08']) {
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      addFormats(ajv);
      const dir = join(FEDRAMP, generation);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
        ajv.addSchema(fixRefs(JSON.parse(readFileSync(join(dir, file), 'utf8'))) as object);
      const validate = ajv.getSchema('https://fedramp.gov/schemas/fedramp-vulnerability-detail-report-schema-2026-06-24.json')!;
      expect({ generation, valid: validate(vdr), errors: validate.errors ?? null }).toEqual({ generation, valid: true, errors: null });
    }
  });
});

/** A `$ref` without `#` read as FedRAMP later fixed it (as test/support/fedramp-schemas.ts does). */
function fixRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fixRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && !v.includes('#') ? v.replace(/\.json\//, '.json#/') : fixRefs(v)]),
  );
}
