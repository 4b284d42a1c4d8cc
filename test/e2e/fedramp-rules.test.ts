import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';

const FILE = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json');
const NOW = '2026-11-25';

const raw = JSON.parse(readFileSync(FILE, 'utf8')) as any;

/** Every rule of the raw file with the subset it sits in: FRR.<family>.data.<type>.<subset>.<id>, the subset from info.<type>.subsets or info.subsets. */
const rawRules = Object.values(raw.FRR).flatMap((f: any) =>
  Object.entries(f.data).flatMap(([type, bySubset]: [string, any]) =>
    Object.entries(bySubset).flatMap(([sub, byId]: [string, any]) =>
      Object.entries(byId).map(([id, rule]: [string, any]) => ({
        id,
        type,
        rule,
        subset: (type === 'all' ? undefined : f.info[type]?.subsets?.[sub]) ?? f.info.subsets[sub],
      })),
    ),
  ),
);
const rawKsiIds = Object.values(raw.KSI).flatMap((theme: any) => Object.keys(theme.indicators));

/** The ids a Class A list rule names, read from its `following_information` lines ("Family: ID (Name)"), not from `related`. */
const namedBy = (id: string): string[] =>
  rawRules.find((r) => r.id === id)!.rule.following_information.map((line: string) => /: ((?:KSI-)?[A-Z]+-[A-Z]+-[A-Z]+) \(/.exec(line)![1]);

/**
 * What applies to a 20x profile on the program path, worked out here from the raw file alone: rules for all types or
 * 20x whose affects name Providers and whose subset's types, paths and classes hold the profile; for Class A, plus what
 * FRC-CLA-MFR names, less what FRC-CLA-RFR and FRC-CLA-OFR name (listed apart), and the KSIs FRC-CLA-MFR names.
 */
function expected(cls: string): { rules: string[]; ksis: string[]; recommended: string[]; optional: string[] } {
  const ofType = rawRules.filter((r) => r.type === 'all' || r.type === '20x');
  const holds = (a: any) =>
    a.types.map((t: string) => t.toLowerCase()).includes('20x') && a.paths.map((p: string) => p.toLowerCase()).includes('program') && a.classes.includes(cls);
  const base = ofType.filter((r) => r.rule.affects.includes('Providers') && holds(r.subset.applicability)).map((r) => r.id);
  if (cls !== 'A') return { rules: base.sort(), ksis: [...rawKsiIds].sort(), recommended: [], optional: [] };
  const rules = new Set(ofType.map((r) => r.id));
  const [mfr, rfr, ofr] = ['FRC-CLA-MFR', 'FRC-CLA-RFR', 'FRC-CLA-OFR'].map(namedBy);
  const apart = new Set([...rfr, ...ofr].filter((id) => !mfr.includes(id)));
  return {
    rules: [...new Set([...base, ...mfr.filter((id) => rules.has(id))])].filter((id) => !apart.has(id)).sort(),
    ksis: mfr.filter((id) => id.startsWith('KSI-')).sort(),
    recommended: rfr.filter((id) => rules.has(id) && !mfr.includes(id)).sort(),
    optional: ofr.filter((id) => rules.has(id) && !mfr.includes(id) && !rfr.includes(id)).sort(),
  };
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-fedramp-rules-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** svc in a directory of its own (so no svc.config.json but the one a test writes is read). */
const inDir = (name: string, args: string[], config?: unknown): SvcRun => {
  const dir = join(tmp, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  if (config !== undefined) writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return svc(['fedramp', 'rules', ...args], { cwd: dir });
};
const json = (run: SvcRun): any => {
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
};
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('svc fedramp rules: 20x Class A and Class B on the program path, against the raw rules file', () => {
  const a = expected('A');
  const b = expected('B');

  it('the raw file names 16 rules and 7 KSIs in FRC-CLA-MFR, as its related list does', () => {
    expect(namedBy('FRC-CLA-MFR').sort()).toEqual([...rawRules.find((r) => r.id === 'FRC-CLA-MFR')!.rule.related].sort());
    expect(a.ksis).toEqual(['KSI-CED-RAT', 'KSI-CMT-LMC', 'KSI-CNA-RNT', 'KSI-IAM-AAM', 'KSI-IAM-APM', 'KSI-INR-RIR', 'KSI-SVC-SIN']);
    expect([a.rules.length, a.recommended.length, a.optional.length, b.rules.length, b.ksis.length]).toEqual([31, 10, 9, 155, 46]);
  });

  it('--class A: 31 rules and 7 KSIs, 10 recommended, 9 optional, 66 apart', () => {
    const out = json(inDir('class-a', ['--class', 'A', '--type', '20x', '--now', NOW, '--json']));
    expect(out.counts).toEqual({ rules: 31, ksis: 7, recommended: 10, optional: 9, apart: 66, in_force: 30, later: 1, not_yet_defined: 0 });
    expect({ rules: ids(out.rules), ksis: ids(out.ksis), recommended: ids(out.recommended), optional: ids(out.optional) }).toEqual(a);
    // Spot checks, read in the file by hand.
    expect(out.rules.find((r: any) => r.id === 'IVV-CSX-AIA')).toMatchObject({
      force: 'MUST',
      via: 'FRC-CLA-MFR',
      effective: { state: 'in_force', since: '2026-07-04' },
    });
    expect(out.rules.find((r: any) => r.id === 'VDR-CSO-DET')).toMatchObject({ force: 'MUST', effective: { state: 'required_from', date: '2026-12-07' } });
    expect(out.recommended.find((r: any) => r.id === 'VDR-TFR-MVX')).toMatchObject({ force: 'SHOULD', timeframe: { unit: 'months', num: 1 } });
    expect(ids(out.recommended)).toContain('CPO-CSX-CPM');
    expect(ids(out.optional)).toContain('FRC-APP-FIA');
    expect(ids(out.rules)).not.toContain('FRC-APP-FIA');
  });

  it('--class B: 155 rules and the 46 KSIs, nothing recommended or optional apart', () => {
    const out = json(inDir('class-b', ['--class', 'B', '--type', '20x', '--now', NOW, '--json']));
    expect(out.counts).toEqual({ rules: 155, ksis: 46, recommended: 0, optional: 0, apart: 66, in_force: 119, later: 36, not_yet_defined: 0 });
    expect({ rules: ids(out.rules), ksis: ids(out.ksis), recommended: ids(out.recommended), optional: ids(out.optional) }).toEqual(b);
    expect(out.rules.find((r: any) => r.id === 'VDR-TFR-MVX')).toMatchObject({ force: 'MUST', timeframe: { unit: 'days', num: 7 }, varies_by_class: true });
    expect(out.rules.find((r: any) => r.id === 'VDR-TFR-PVR')).toMatchObject({ force: 'SHOULD', by_rating: true });
    expect(ids(out.rules)).not.toContain('FRC-CLA-MFR');
    expect(ids(out.rules)).not.toContain('VDR-TFR-MVF'); // Rev5's
    expect(out.apart.find((r: any) => r.id === 'AGU-USE-CLA')).toEqual({
      id: 'AGU-USE-CLA',
      family: 'AGU',
      name: 'Using FedRAMP Class A Certifications',
      affects: ['Agencies'],
    });
  });

  it('--class D: SDR-CSX-KMT waits for the 20x Phase 4 Pilot, VDR-TFR-MVX gives no Class D', () => {
    const out = json(inDir('class-d', ['--class', 'D', '--type', '20x', '--now', NOW, '--json']));
    expect(out.rules.find((r: any) => r.id === 'SDR-CSX-KMT').effective).toEqual({ state: 'not_yet_defined', class: 'D', pilot: '20x Phase 4 Pilot' });
    expect(out.rules.find((r: any) => r.id === 'VDR-TFR-MVX').effective).toEqual({ state: 'not_yet_defined', class: 'D' });
  });
});

describe('svc fedramp rules: output', () => {
  it('prints the summary line, the rules and the Class A lists apart, aligned', () => {
    expect(inDir('text-a', ['--class', 'A', '--type', '20x', '--family', 'vdr', '--now', NOW])).toEqual({
      stdout: [
        'CR26 2026.10.05.01, 20x Class A, program path (default), applying (default), as of 2026-11-25, family VDR: 1 rule and 0 KSIs apply',
        '',
        'Rules: 0 in force, 1 required from a later date',
        'VDR-CSO-DET  MUST  -  required from 2026-12-07  Vulnerability Detection',
        '',
        'Recommended for Class A (SHOULD, FRC-CLA-RFR): 5',
        'VDR-TFR-MVX  SHOULD  1 month      required from 2026-12-07  Persistent Machine Verification and Validation for 20x',
        'VDR-TFR-PCD  SHOULD  6 months     required from 2026-12-07  Persistently Complete Detection',
        'VDR-TFR-PDD  SHOULD  3 months     required from 2026-12-07  Persistent Drift Detection',
        'VDR-TFR-PSD  SHOULD  14 days      required from 2026-12-07  Persistent Sample Detection',
        'VDR-TFR-PVR  SHOULD  by N-rating  required from 2026-12-07  Mitigation and Remediation Expectations',
        '',
      ].join('\n'),
      stderr: '',
      status: 0,
    });
  });

  it('reads the profile from svc.config.json: certified, with a grace that runs until the next assessment', () => {
    const config = { fedramp: { type: '20x', class: 'B', path: 'program', status: 'certified', next_assessment: '2027-05-15' } };
    expect(inDir('certified', ['--family', 'CPO', '--now', '2027-02-01T09:30:00Z'], config)).toEqual({
      stdout: [
        'CR26 2026.10.05.01, 20x Class B, program path, certified, as of 2027-02-01T09:30:00Z, family CPO: 4 rules and 0 KSIs apply',
        '',
        'Rules: 4 in force',
        'CPO-CSO-MTD  MUST  -        in force, grace until 2027-05-15  Certification Package Overview Metadata',
        'CPO-CSO-OSA  MUST  -        in force, grace until 2027-05-15  Overall Summary of Assessment in Certification Package',
        'CPO-CSO-OVR  MUST  -        in force, grace until 2027-05-15  Overview of the Cloud Service Offering',
        'CPO-CSX-CPM  MUST  1 month  in force, grace until 2027-05-15  Certification Package Maintenance for 20x',
        '',
      ].join('\n'),
      stderr: '',
      status: 0,
    });
    // --class overrides the profile's class.
    expect(json(inDir('certified', ['--class', 'A', '--json'], config)).profile).toEqual({
      type: '20x',
      class: 'A',
      path: 'program',
      status: 'certified',
      next_assessment: '2027-05-15',
      defaults: [],
    });
  });

  it('--json: objects with id in rules, ksis, recommended, optional and apart; the release, profile and time', () => {
    const out = json(inDir('json', ['--class', 'B', '--type', '20x', '--family', 'CPO', '--now', NOW, '--json']));
    expect(Object.keys(out)).toEqual(['release', 'profile', 'now', 'family', 'counts', 'rules', 'ksis', 'recommended', 'optional', 'apart']);
    expect(out).toMatchObject({
      release: { version: '2026.10.05.01', date: '2026-10-05' },
      profile: { type: '20x', class: 'B', path: 'program', status: 'applying', defaults: ['path', 'status'] },
      now: '2026-11-25T00:00:00Z',
      family: 'CPO',
    });
    expect(out.rules[3]).toEqual({
      id: 'CPO-CSX-CPM',
      family: 'CPO',
      subset: 'CSX',
      type: '20x',
      name: 'Certification Package Maintenance for 20x',
      force: 'MUST',
      timeframe: { unit: 'months', num: 1 },
      varies_by_class: true,
      effective: { state: 'in_force', since: '2026-07-04' },
      via: 'subset',
      related: [],
    });
    const ksis = json(inDir('json-ksi', ['--class', 'B', '--type', '20x', '--family', 'KSI', '--json']));
    expect([ksis.counts.rules, ksis.ksis.length]).toEqual([0, 46]);
    expect(ksis.ksis[0]).toEqual({
      id: 'KSI-CED-RAT',
      theme: 'CED',
      name: 'Reviewing All Training',
      controls: expect.arrayContaining(['at-2']),
      effective: { state: 'in_force' },
      via: 'type',
    });
  });

  it('--type rev5: the Rev5 rules, no KSI', () => {
    const out = json(inDir('rev5', ['--class', 'C', '--type', 'rev5', '--now', NOW, '--json']));
    expect([out.counts.ksis, out.ksis]).toEqual([0, []]);
    expect(ids(out.rules)).toContain('VDR-TFR-MVF');
    expect(ids(out.rules)).not.toContain('VDR-TFR-MVX');
    expect(inDir('rev5-text', ['--class', 'C', '--type', 'Rev5', '--now', NOW]).stdout.split('\n')[0]).toMatch(
      /^CR26 2026\.10\.05\.01, rev5 Class C, .*: \d+ rules and 0 KSIs apply$/,
    );
  });

  it("--rules-file: the official file, with FedRAMP's statements; a missing file is exit 3", () => {
    const out = json(inDir('official', ['--class', 'D', '--type', '20x', '--family', 'SDR', '--rules-file', FILE, '--json']));
    expect(out.release).toEqual({ version: '2026.07.14.01', date: '2026-07-14', file: FILE });
    expect(out.rules.find((r: any) => r.id === 'SDR-CSX-KMT').statement).toBe(raw.FRR.SDR.data['20x'].CSX['SDR-CSX-KMT'].varies_by_class.d.statement);
    const missing = join(tmp, 'nope.json');
    expect(inDir('official-missing', ['--class', 'B', '--type', '20x', '--rules-file', missing])).toEqual({
      stdout: '',
      stderr: `Error: ${missing}: no such FedRAMP rules file; check the path\n`,
      status: 3,
    });
  });
});

describe('svc fedramp rules: errors', () => {
  it('a bad --class or --type is a one-line usage error (exit 2), under --json too', () => {
    expect(inDir('bad-class', ['--class', 'E'])).toEqual({
      stdout: '',
      stderr: 'Error: --class E: not a Certification Class; write A, B, C or D\n',
      status: 2,
    });
    expect(JSON.parse(inDir('bad-class', ['--class', 'E', '--json']).stdout)).toEqual({
      error: { code: 'bad-flag-value', exit: 2, message: '--class E: not a Certification Class; write A, B, C or D' },
    });
    expect(inDir('bad-type', ['--type', '21x', '--class', 'B'])).toEqual({
      stdout: '',
      stderr: 'Error: --type 21x: not a certification type; write 20x or rev5\n',
      status: 2,
    });
    expect(inDir('bad-family', ['--class', 'B', '--type', '20x', '--family', 'XYZ']).stderr).toBe(
      'Error: --family XYZ: not a family of CR26 2026.10.05.01; use one of AFC, AGU, CCM, CDS, CMU, CPO, FRC, IEC, IVV, MAS, MKT, REC, SCG, SCN, SDR, VDR, VER, KSI\n',
    );
  });

  it('a bad profile value in svc.config.json: one line naming the key and the fix, exit 3, nothing written', () => {
    const run = inDir('bad-profile', ['--json'], { fedramp: { type: '20x', class: 'E' } });
    const file = join(tmp, 'bad-profile', 'svc.config.json');
    const message = `${file}: fedramp.class: "E" is not a Certification Class; write A, B, C or D; see docs/configuration.md`;
    expect(run).toEqual({ stdout: `${JSON.stringify({ error: { code: 'invalid-config', exit: 3, message } }, null, 2)}\n`, stderr: '', status: 3 });
    expect(inDir('bad-profile', [], { fedramp: { type: '20x', class: 'E' } })).toEqual({ stdout: '', stderr: `Error: ${message}\n`, status: 3 });
    expect(readdirSync(join(tmp, 'bad-profile'))).toEqual(['svc.config.json']);
  });

  it('a missing profile key the command needs: named, with the flag that may give it instead', () => {
    const run = inDir('no-class', [], { fedramp: { type: '20x' } });
    const file = join(tmp, 'no-class', 'svc.config.json');
    expect(run).toEqual({
      stdout: '',
      stderr: `Error: ${file}: fedramp.class: missing; svc fedramp rules needs it: write A, B, C or D, or pass --class; see docs/configuration.md\n`,
      status: 3,
    });
    expect(inDir('no-config', ['--class', 'B']).stderr).toBe(
      'Error: svc.config.json: fedramp.type: missing; svc fedramp rules needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md\n',
    );
  });
});

describe('svc fedramp rules --sources', () => {
  const CURRENT = join(__dirname, '..', '..', 'schemas', 'fedramp', '2026-10-08');
  const sources = (name: string, args: string[], config?: unknown): SvcRun => {
    const dir = join(tmp, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    if (config !== undefined) writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
    return svc(['fedramp', 'rules', '--sources', ...args], { cwd: dir, env: { SVC_FEDRAMP_SCHEMAS: '', SVC_CACHE_DIR: join(tmp, 'cache') } });
  };
  const row = (type: string, title: string, version: string, hex: string, stem: string) =>
    [type.padEnd(11), title.padEnd(31), version.padEnd(14), `sha256:${hex}`, `fedramp-${stem}-schema-2026-06-24.json`].join('  ').trimEnd();

  it("names the rules release and, with no profile, the schemas svc carries: each one's type, $schemaVersion and sha256", () => {
    const run = sources('carried', []);
    const lines = run.stdout.split('\n');
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(lines.slice(0, 2)).toEqual([
      'Rules: FedRAMP Consolidated Rules for 2026 2026.10.05.01 of 2026-10-05, from fedramp-consolidated-rules.2026.10.05.01.json (sha256:d8a1cd5513fb0e1ecebf2ad8a74259c4b74900e8f7b4b429d6d6741bf9fe555f)',
      `Schemas: FedRAMP's CR26 schemas of 2026-10-08, carried by svc (${CURRENT})`,
    ]);
    expect(lines[2]).toMatch(/^Type {9}Document {25}\$schemaVersion {2}SHA-256 +File$/);
    expect(lines.slice(4)).toEqual([
      row('sdr', 'Security Decision Record', '1.1.1', '6a6d7dca1a9ae0031c06df6213bf5c5631e9b9b5fb81c050403cfd723484be86', 'security-decision-record'),
      row(
        'cpo',
        'Certification Package Overview',
        '0.1.6',
        '23fa88449e501b7a07ca51cbcdd0169e1072ea82d927c4c13380858035b79379',
        'certification-package-overview',
      ),
      row('ocr', 'Ongoing Certification Report', '0.2.1', 'c67f4e79a107f106abc2dce50043e798f9708e80a5df2c52e41ed700a3a542c8', 'ongoing-certification-report'),
      row(
        'scn',
        'Significant Change Notification',
        '0.1.3',
        'e0f624b7996c2d8dfb1891c4663fb1df2ec6487a65f03fb43f1ce6ed59910372',
        'significant-change-notifications',
      ),
      row('vdr', 'Vulnerability Detail Report', '0.1.1', '92b2918106c0117ba84d14a5da33762dbb5df2acbf5303a806f6d4bbea98f60b', 'vulnerability-detail-report'),
      row('avi', 'Accepted Vulnerability Info', '0.1.1', '2c17ba6e21abd1951e29cf59d90e69d39468c01eb1ad69a6c690233e196f68e2', 'accepted-vulnerability-info'),
      row('history', 'Historical VER Activity', '0.1.1', '51011860138687f25b858b840eefe2b077f31a183ba5d625c461ac296c58df9f', 'historical-ver-activity'),
      row('incident', 'Incident Report', '0.2.1', 'e0871781b6a99c395b8b4854d10ca11e7600ce81c4f3dc6404caddb8ef3105e8', 'incident-report'),
      row('assessor', 'Assessor Information', '1.0.1', 'd8119875f97c1399c9cd4ee74cc8da0dcc9a4398b602dd2396afac977be3199a', 'assessor-information'),
      row('advisor', 'Advisor Information', '1.0.1', 'c77c5ed730bc14f44342186b215bd345387256db6a4979a8eb61c7f08902e8eb', 'advisor-information'),
      row('definitions', 'Common Definitions', '0.4.0', '62c59d20731cbbd3151951c6772a5cd75439f338dc4f7f1adb522dcfc7424cc9', 'common-definitions'),
      '',
    ]);
  });

  it('--json, for the set --schemas or the config names: the same file names, told apart by $schemaVersion and sha256', () => {
    const first = join(REFERENCE, 'fedramp', 'cr26-schemas');
    const out = json(sources('given', ['--schemas', first, '--json']));
    expect(out.rules).toEqual({
      title: 'FedRAMP Consolidated Rules for 2026',
      version: '2026.10.05.01',
      date: '2026-10-05',
      file: 'fedramp-consolidated-rules.2026.10.05.01.json',
      sha256: 'sha256:d8a1cd5513fb0e1ecebf2ad8a74259c4b74900e8f7b4b429d6d6741bf9fe555f',
    });
    expect(out.schemas.dir).toBe(first);
    expect(out.schemas.carried).toBeUndefined();
    expect(out.schemas.schemas[0]).toEqual({
      type: 'sdr',
      title: 'Security Decision Record',
      schema_version: '1.0.0',
      sha256: 'sha256:d598637cd4bb0f52425d7186ddc6f9463dcdda02734533623322e031d9b97b1a',
      file: 'fedramp-security-decision-record-schema-2026-06-24.json',
    });
    const viaConfig = json(sources('config', ['--json'], { fedramp_schemas: join(REFERENCE, 'fedramp', 'cr26-schemas-2026-09-17') }));
    expect(viaConfig.schemas.schemas.find((s: any) => s.type === 'definitions')).toMatchObject({
      schema_version: '0.3.0',
      sha256: 'sha256:1d2468ace4f2e9f08471ec2dae38e9f7847b04cd12ac54b61b0923319d16622d',
    });
    expect(json(sources('carried-json', ['--json'])).schemas).toMatchObject({ dir: CURRENT, carried: '2026-10-08' });
  });

  it('a --schemas directory that holds none: exit 5; --schemas without --sources, or --sources with a profile flag: exit 2', () => {
    const empty = join(tmp, 'empty-schemas');
    mkdirSync(empty, { recursive: true });
    expect(sources('bad-dir', ['--schemas', empty])).toMatchObject({
      status: 5,
      stdout: '',
      stderr: expect.stringMatching(/^Error: FedRAMP schemas not found in /),
    });
    expect(inDir('schemas-alone', ['--schemas', empty]).status).toBe(2);
    expect(sources('with-class', ['--class', 'B']).status).toBe(2);
  });
});
