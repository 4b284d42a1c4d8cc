import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container } from 'tsyringe';
import { NotFoundError } from '../../src/domain/errors';
import { checkCr26Consistency } from '../../src/domain/fedramp/cr26-consistency';
import { BundledRulesSource } from '../../src/infrastructure/fedramp/bundled-rules-source';
import { registerAdapters } from '../../src/infrastructure/register-adapters';
import { FEDRAMP_RULES_SOURCE } from '../../src/ports/fedramp-rules-source';
import { builtInRules, FixedRulesSource } from '../fakes/fixed-rules-source';

const OFFICIAL = join(__dirname, '..', '..', '..', 'shared', 'reference', 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json');
const FIX = "pass FedRAMP's consolidated rules file (fedramp-consolidated-rules.json from github.com/FedRAMP/rules)";

describe('BundledRulesSource (FEDRAMP_RULES_SOURCE)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-cr26-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the bundled data by default, the model the test double reads', () => {
    const rules = new BundledRulesSource().rules();
    expect(rules).toEqual(builtInRules());
    expect(rules.statements).toBeUndefined();
    expect(rules.source?.version).toBe('2026.10.05.01');
  });

  it('gives the same model, with the statements, when SVC_FEDRAMP_RULES names the official file', () => {
    const { statements, ...official } = new BundledRulesSource({ officialFile: OFFICIAL }).rules();
    expect(official).toEqual(builtInRules());
    expect(statements?.['VDR-TFR-NMV']?.text).toMatch(/^Providers /);
    const { statements: again, ...asked } = new BundledRulesSource().official(OFFICIAL);
    expect(asked).toEqual(official);
    expect(again).toEqual(statements);
  });

  it('resolves SVC_FEDRAMP_RULES against the working directory, through registerAdapters', () => {
    copyFileSync(OFFICIAL, join(dir, 'rules.json'));
    const child = registerAdapters(container.createChildContainer(), { env: { SVC_FEDRAMP_RULES: 'rules.json' }, cwd: dir });
    expect(child.resolve(FEDRAMP_RULES_SOURCE).rules().source).toEqual({ ...builtInRules().source, file: 'rules.json' });
    const bundled = registerAdapters(container.createChildContainer(), { env: {}, cwd: dir });
    expect(bundled.resolve(FEDRAMP_RULES_SOURCE).rules().statements).toBeUndefined();
  });

  it('reads a newer release at run time: new fields, a range, a dropped KSI (its aliases retired)', () => {
    const document = JSON.parse(readFileSync(OFFICIAL, 'utf8'));
    document.info.version = '2026.09.13.02';
    document.info.x_new_section = { anything: true };
    delete document.KSI.IAM.indicators['KSI-IAM-APM'];
    delete document.FRR.VDR.data.all.TFR['VDR-TFR-NMV'].timeframe_num;
    Object.assign(document.FRR.VDR.data.all.TFR['VDR-TFR-NMV'], { timeframe_type: 'months', timeframe_num_max: 3, definitions: ['new'] });
    const file = join(dir, 'newer.json');
    writeFileSync(file, JSON.stringify(document));
    const rules = new BundledRulesSource({ officialFile: file }).rules();
    expect(rules.info.version).toBe('2026.09.13.02');
    expect(rules.ksis).toHaveLength(45);
    expect(rules.rules.find((r) => r.id === 'VDR-TFR-NMV')?.timeframe).toEqual({ unit: 'months', max: 3 });
    expect(rules.aliases['KSI-IAM-02']).toBeUndefined();
    expect(rules.retired.find((r) => r.id === 'KSI-IAM-02')).toEqual({
      id: 'KSI-IAM-02',
      kind: 'ksi',
      last_release: '2026.10.05.01',
      reason: 'not-in-cr26',
      via: 'KSI-IAM-APM',
    });
    expect(rules.source).toMatchObject({ file: 'newer.json', version: '2026.09.13.02' });
    // FRC-CLA-MFR names KSI-IAM-APM as related: the dropped KSI is found.
    expect(checkCr26Consistency(rules).problems).toContain('FRC-CLA-MFR: related KSI-IAM-APM is not a rule or KSI');
  });

  it('refuses a missing file, bad JSON and a file that is not a rules file, naming the file and SVC_FEDRAMP_RULES', () => {
    const missing = join(dir, 'missing.json');
    expect(() => new BundledRulesSource({ officialFile: missing }).rules()).toThrow(NotFoundError);
    expect(() => new BundledRulesSource({ officialFile: missing }).rules()).toThrow(
      expect.objectContaining({ code: 'file-not-found', message: `${missing} (SVC_FEDRAMP_RULES): no such FedRAMP rules file; check the path` }),
    );
    expect(() => new BundledRulesSource().official(missing)).toThrow(
      expect.objectContaining({ code: 'file-not-found', message: `${missing}: no such FedRAMP rules file; check the path` }),
    );
    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, '{"info": 1');
    expect(() => new BundledRulesSource({ officialFile: truncated }).rules()).toThrow(
      expect.objectContaining({
        code: 'invalid-json',
        message: expect.stringContaining(`${truncated} (SVC_FEDRAMP_RULES): invalid JSON at line 1, column 11: `),
      }),
    );
    // The 0.9.43-beta documentation file is FRMR, not consolidated rules: its families' dates are per type, without "is".
    const frmr = join(__dirname, '..', '..', '..', 'shared', 'reference', 'fedramp', 'FRMR.documentation.0.9.43-beta.json');
    expect(() => new BundledRulesSource().official(frmr)).toThrow(
      expect.objectContaining({ code: 'invalid-rules-file', message: `${frmr}: FRR.ADS.info.effective.is: missing; expected a string; ${FIX}` }),
    );
  });
});

describe('FixedRulesSource (the test double)', () => {
  it('gives the bundled data, and parses the official documents it is given', () => {
    const document = JSON.parse(readFileSync(OFFICIAL, 'utf8'));
    const fake = new FixedRulesSource(undefined, { '/rules.json': document });
    expect(fake.rules()).toEqual(builtInRules());
    const { statements, source, ...official } = fake.official('/rules.json');
    expect(statements).toBeDefined();
    expect(source).toBeUndefined();
    expect({ ...official, source: builtInRules().source }).toEqual(builtInRules());
    expect(() => fake.official('/missing.json')).toThrow(expect.objectContaining({ code: 'file-not-found' }));
  });
});
