import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectionsOf, reportFromScan } from '../../../src/domain/scan/ksi-from-checks';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { ckl } from '../../../src/infrastructure/scans/vendors/ckl';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { outcomes, provenanceOf, rawSample, readWith, scratchFolder } from '../../support/adapters';
import { FIXTURES, REFERENCE } from '../../support/run-svc';

const RED_HAT = rawSample('ckl', 'red_hat_good.ckl');
const OVERRIDES = rawSample('ckl', 'small_ckl_overrides.ckl');
/**
 * small_ckl_overrides.ckl as STIG Viewer 3 saves it (CKLB JSON): the same 11 rules, texts, CCIs, statuses (in CKLB
 * spelling) and severity overrides (`overrides.severity.{severity,reason}`), rule_id without and rule_id_src with
 * the `_rule` suffix; written for these tests, as no public CKLB sample exists.
 */
const CKLB = join(FIXTURES, 'ckl', 'small_ckl_overrides.cklb');
const PROVENANCE = provenanceOf('ckl');
const NOW = '2026-11-21T00:00:00Z';

const { write } = scratchFolder('svc-ckl-');

/** Each Vuln_Num of a CKL, in file order. */
const vulnNums = (xml: string) => [...xml.matchAll(/<VULN_ATTRIBUTE>Vuln_Num<\/VULN_ATTRIBUTE>\s*<ATTRIBUTE_DATA>([^<]+)</g)].map((m) => m[1]);
const count = (xml: string, pattern: RegExp) => xml.match(pattern)?.length ?? 0;

describe('CKL adapter on the real RHEL 7 checklist (red_hat_good.ckl, written by Heimdall)', () => {
  const raw = readFileSync(RED_HAT, 'utf8');

  it('reads one check per VULN, none dropped, with the outcome its STATUS gives', async () => {
    const scan = await readWith(ckl, RED_HAT);
    // grep -c '<VULN>' = 247; grep -o '<STATUS>[^<]*' | sort | uniq -c: 214 NotAFinding, 24 Not_Applicable, 9 Not_Reviewed.
    expect(count(raw, /<VULN>/g)).toBe(247);
    expect(scan.checks.map((c) => c.id)).toEqual(vulnNums(raw));
    expect(scan.checks).toHaveLength(247);
    expect(outcomes(scan.checks)).toEqual({ pass: 214, 'not-applicable': 24, manual: 9 });
    // Severity high: 22 NotAFinding + 2 Not_Reviewed; no override in this file.
    expect(count(raw, /<VULN_ATTRIBUTE>Severity<\/VULN_ATTRIBUTE>\s*<ATTRIBUTE_DATA>high</g)).toBe(24);
    expect(scan.checks.filter((c) => c.criticality === 'must')).toHaveLength(24);
    expect(scan.checks.every((c) => (c.details ?? '').length <= 300)).toBe(true);
  });

  it('names no host and no STIG Viewer version: HOST_NAME is empty and Heimdall wrote the file', async () => {
    const scan = await readWith(ckl, RED_HAT);
    expect(scan).toMatchObject({ vendor: 'ckl', tool: 'DISA STIG Viewer', detections: 'configuration' });
    expect(scan.version).toBeUndefined();
    expect(scan.tenant).toBeUndefined();
    expect(scan.mapping).toBe(
      "CCI references through DISA's CCI list 2023-06-07 to NIST SP 800-53 Rev. 5, else the CCI's Rev. 4 reference (data/cci-nist.json); none: unmapped",
    );
  });

  it('keeps the rule, the STIG and the finding details of each VULN, and maps its CCI to its Rev. 5 control', async () => {
    const scan = await readWith(ckl, RED_HAT);
    // V-71973: CCI-001744, whose Revision 5 reference is CM-3 (5).
    expect(scan.checks[0]).toEqual({
      id: 'V-71973',
      outcome: 'pass',
      criticality: 'should',
      controls: ['cm-3.5'],
      title:
        'The Red Hat Enterprise Linux operating system must be configured so that a file integrity tool verifies the baseline operating system configuration at least weekly.',
      severity: 'medium',
      details:
        'SV-86597r2_rule (RHEL-07-020030), Red Hat Enterprise Linux 7 Security Technical Implementation Guide - v2r6; finding details: passed :: TEST System Package aide is expected to be installed -------------------------------- passed :: TEST File /etc/cron.daily/aide is expected to exist',
    });
  });

  it("says when a CCI maps by its Rev. 4 reference only (18 of the file's 84 CCIs)", async () => {
    const scan = await readWith(ckl, RED_HAT);
    // V-71903: CCI-000192, which has a Revision 4 reference (IA-5 (1) (a)) and no Revision 5 one.
    const check = scan.checks.find((c) => c.id === 'V-71903');
    expect(check).toMatchObject({
      controls: ['ia-5.1'],
      details: expect.stringContaining(
        '(RHEL-07-010120), Red Hat Enterprise Linux 7 Security Technical Implementation Guide - v2r6; Rev. 4 reference only: CCI-000192; finding details: ',
      ),
    });
    // The 37 VULNs that name one of the 18 such CCIs (counted with a script over the file and the CCI list).
    expect(scan.checks.filter((c) => (c.details ?? '').includes('Rev. 4 reference only'))).toHaveLength(37);
  });

  it('reports the two VULNs whose only CCI has no 800-53 reference as unmapped, never dropped', async () => {
    const scan = await readWith(ckl, RED_HAT);
    // CCI-001263 (V-92255) and CCI-001668 (V-72213) carry only NIST SP 800-53 (rev 3) and 800-53A references.
    expect(scan.checks.filter((c) => c.controls.length === 0).map((c) => [c.id, c.outcome, c.details?.split('; ')[1]])).toEqual([
      ['V-92255', 'pass', 'no 800-53 reference: CCI-001263'],
      ['V-72213', 'pass', 'no 800-53 reference: CCI-001668'],
    ]);
    const { summary } = reportFromScan(scan, PROVENANCE, NOW);
    expect(summary.unmapped_checks).toEqual(['V-72213', 'V-92255']);
    expect(summary.checks).toBe(247);
    // No VULN is Open: every KSI a passed VULN reaches passes.
    expect(summary.statuses).toMatchObject({ WARN: 0, FAIL: 0 });
  });
});

describe('CKL adapter on the checklist with severity overrides (small_ckl_overrides.ckl, STIG Viewer 2.17)', () => {
  // Vuln_Num, STATUS, Severity → SEVERITY_OVERRIDE and CCI_REF of each of the 11 VULNs, read off the file by hand:
  const expected = [
    ['V-257777', 'not-applicable', 'should', 'medium', ['cm-6']], // high → medium; CCI-000366 = CM-6 b
    ['V-257778', 'fail', 'should', 'low', ['cm-6']], // medium → low
    ['V-257779', 'fail', 'must', 'high', ['ac-8']], // medium → high; CCI-000048, -001384..-001388 all AC-8
    ['V-257780', 'fail', 'should', 'medium', ['si-2.2']], // CCI-001233: Rev. 4 SI-2 (2) only
    ['V-257781', 'fail', 'should', 'medium', ['cm-6']],
    ['V-257782', 'pass', 'should', 'low', ['cm-6']],
    ['V-257783', 'pass', 'should', 'medium', ['sc-24']], // CCI-001665 = SC-24
    ['V-257784', 'manual', 'must', 'high', ['cm-6', 'ac-6.10']], // CCI-002235 = AC-6 (10)
    ['V-257785', 'manual', 'must', 'high', ['cm-6', 'ac-6.10']],
    ['V-257786', 'manual', 'should', 'medium', ['cm-6', 'ac-6.10']],
    ['V-257787', 'manual', 'should', 'medium', ['ac-3']], // CCI-000213 = AC-3
  ];

  it('gives each VULN its outcome, the criticality of its overridden severity, and its controls', async () => {
    const scan = await readWith(ckl, OVERRIDES);
    expect(scan.checks.map((c) => [c.id, c.outcome, c.criticality, c.severity, c.controls])).toEqual(expected);
    expect(outcomes(scan.checks)).toEqual({ pass: 2, fail: 4, 'not-applicable': 1, manual: 4 });
    expect(scan.version).toBe('2.17');
  });

  it('says which severity an override replaced and why, and which CCI maps by Rev. 4 only', async () => {
    const scan = await readWith(ckl, OVERRIDES);
    const stig = 'SV-257779r925324_rule (RHEL-09-211020), Red Hat Enterprise Linux 9 Security Technical Implementation Guide V1R3';
    expect(scan.checks[2].details).toBe(`${stig}; severity high overrides medium: Example high justification`);
    expect(scan.checks[0].details).toContain('; severity medium overrides high: Testing both N/A and overidden');
    expect(scan.checks[3].details).toBe(
      'SV-257780r939261_rule (RHEL-09-211025), Red Hat Enterprise Linux 9 Security Technical Implementation Guide V1R3; Rev. 4 reference only: CCI-001233',
    );
  });

  it('fails the KSI of the Open CAT I override, warns the others, and leaves the not-reviewed ones not assessed', async () => {
    const { report, summary } = reportFromScan(await readWith(ckl, OVERRIDES), PROVENANCE, NOW);
    expect(summary.statuses).toEqual({ PASS: 1, WARN: 2, FAIL: 1 });
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual([
      ['KSI-AC-08', 'FAIL'],
      ['KSI-CM-06', 'WARN'],
      ['KSI-SC-24', 'PASS'],
      ['KSI-SI-02', 'WARN'],
    ]);
    expect(summary.not_assessed).toEqual(['KSI-AC-03', 'KSI-AC-06']);
    expect(summary.unmapped_checks).toEqual([]);
    expect(report.source).toMatchObject({ tool: 'DISA STIG Viewer', version: '2.17' });
  });

  it('makes one configuration detection of each Open VULN', async () => {
    const detections = detectionsOf(await readWith(ckl, OVERRIDES), NOW, new PureJsHashing());
    expect(detections.map((d) => [d.finding_id, d.scanner_severity, d.kind, d.resource])).toEqual([
      ['V-257778', 'low', 'configuration', 'DISA STIG Viewer scan'],
      ['V-257779', 'high', 'configuration', 'DISA STIG Viewer scan'],
      ['V-257780', 'medium', 'configuration', 'DISA STIG Viewer scan'],
      ['V-257781', 'medium', 'configuration', 'DISA STIG Viewer scan'],
    ]);
  });

  it('names the checked host from ASSET/HOST_NAME, else HOST_FQDN', async () => {
    const raw = readFileSync(OVERRIDES, 'utf8');
    const named = await readWith(
      ckl,
      write(
        'host.ckl',
        raw
          .replace('<HOST_NAME></HOST_NAME>', '<HOST_NAME>rhel9-web-01</HOST_NAME>')
          .replace('<HOST_FQDN></HOST_FQDN>', '<HOST_FQDN>rhel9-web-01.example.gov</HOST_FQDN>'),
      ),
    );
    expect(named.tenant).toBe('rhel9-web-01');
    expect(named.checks.every((c) => c.resource === 'rhel9-web-01')).toBe(true);
    const fqdn = await readWith(ckl, write('fqdn.ckl', raw.replace('<HOST_FQDN></HOST_FQDN>', '<HOST_FQDN>rhel9-web-01.example.gov</HOST_FQDN>')));
    expect(fqdn.checks[0].resource).toBe('rhel9-web-01.example.gov');
  });
});

describe('CKL adapter on a CKLB (STIG Viewer 3 JSON) checklist', () => {
  const cklb = JSON.parse(readFileSync(CKLB, 'utf8'));

  it('reads the CKLB of small_ckl_overrides.ckl into the same checks as the CKL', async () => {
    const [fromCkl, fromCklb] = await Promise.all([readWith(ckl, OVERRIDES), readWith(ckl, CKLB)]);
    expect(cklb.stigs[0].rules).toHaveLength(11);
    expect(fromCklb.checks).toEqual(fromCkl.checks);
    expect(fromCklb.version).toBeUndefined();
    expect(reportFromScan(fromCklb, PROVENANCE, NOW).summary.statuses).toEqual({ PASS: 1, WARN: 2, FAIL: 1 });
  });

  it('takes the host from target_data, and finding details and comments from each rule', async () => {
    const copy = structuredClone(cklb);
    copy.target_data.host_name = 'rhel9-web-01';
    Object.assign(copy.stigs[0].rules[1], {
      finding_details: 'dnf history shows no update since 2023-03-05',
      comments: 'ticket CHG-1234 schedules the update',
    });
    const scan = await readWith(ckl, write('host.cklb', copy));
    expect(scan.tenant).toBe('rhel9-web-01');
    expect(scan.checks[1]).toMatchObject({
      resource: 'rhel9-web-01',
      details:
        'SV-257778r925321_rule (RHEL-09-211015), Red Hat Enterprise Linux 9 Security Technical Implementation Guide V1R3; severity low overrides medium: Example of overridden severity; finding details: dnf history shows no update since 2023-03-05; comments: ticket CHG-1234 schedules the update',
    });
  });

  it('shares what is left of 300 characters between long finding details and comments', async () => {
    const copy = structuredClone(cklb);
    Object.assign(copy.stigs[0].rules[4], { finding_details: `F${'f'.repeat(2000)}`, comments: `C${'c'.repeat(2000)}` });
    const { details = '' } = (await readWith(ckl, write('long.cklb', copy))).checks[4];
    expect(details.length).toBeLessThanOrEqual(300);
    const [, finding, comments] = /; finding details: (Ff*…); comments: (Cc*…)$/.exec(details) ?? [];
    expect(Math.abs(finding.length - comments.length)).toBeLessThanOrEqual(20);
  });

  it('reads CAT names, the CKL status spellings, an unknown severity, a CCI missing from the list and a rule without CCIs', async () => {
    const rule = (over: object) => ({ ...cklb.stigs[0].rules[4], overrides: {}, ...over });
    const copy = {
      ...cklb,
      stigs: [
        {
          ...cklb.stigs[0],
          rules: [
            rule({ severity: 'CAT I', status: 'Open' }),
            rule({ severity: 'unknown', status: 'NotAFinding', ccis: ['CCI-999999'] }),
            rule({ severity: 'cat iii', status: 'Not_Reviewed', ccis: [] }),
          ],
        },
      ],
    };
    const scan = await readWith(ckl, write('words.cklb', copy));
    expect(scan.checks.map((c) => [c.outcome, c.criticality, c.severity, c.controls])).toEqual([
      ['fail', 'must', 'CAT I', ['cm-6']],
      ['pass', 'should', 'unknown', []],
      ['manual', 'should', 'cat iii', []],
    ]);
    expect(scan.checks[1].details).toContain("; not in DISA's CCI list 2023-06-07: CCI-999999");
    expect(scan.checks[2].details).toContain('; no CCI reference');
  });
});

describe('CKL adapter: telling checklists from other scanners', () => {
  const SAMPLES = join(REFERENCE, 'raw-samples');
  const heads = readdirSync(SAMPLES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(SAMPLES, d.name))
        .filter((f) => !/\.(md|tsv)$/.test(f))
        .map((f) => ({
          name: `${d.name}/${f}`,
          head: readFileSync(join(SAMPLES, d.name, f))
            .subarray(0, 64 * 1024)
            .toString('utf8')
            .replace(/^\uFEFF/, ''),
        })),
    );

  it('takes both CKL samples and the CKLB, and no other scanner sample', () => {
    expect(heads.filter((h) => ckl.looksLike(h.head)).map((h) => h.name)).toEqual(['ckl/red_hat_good.ckl', 'ckl/small_ckl_overrides.ckl']);
    expect(ckl.looksLike(readFileSync(CKLB, 'utf8').slice(0, 64 * 1024))).toBe(true);
  });

  it('is the only parser of the registry that takes them', () => {
    for (const file of [RED_HAT, OVERRIDES, CKLB]) {
      const head = readFileSync(file)
        .subarray(0, 64 * 1024)
        .toString('utf8');
      expect(VENDOR_PARSERS.filter((p) => p.looksLike(head)).map((p) => p.info.vendor)).toEqual(['ckl']);
    }
  });
});

describe('CKL adapter on bad input', () => {
  // What every parser refuses alike (an empty file, a folder, a file cut short, another vendor's file, …): vendor-parser-contract.test.ts.
  const raw = readFileSync(OVERRIDES, 'utf8');
  const suffix = '; this is not DISA STIG Viewer output as svc knows it (docs/adapters.md)';

  it('refuses a status STIG Viewer does not write, naming the VULN and the statuses it does', async () => {
    const path = write('status.ckl', raw.replace('<STATUS>Open</STATUS>', '<STATUS>Fixed</STATUS>'));
    await expect(readWith(ckl, path)).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'invalid-scan',
      message: `${path}: STIGS/iSTIG[1]/VULN[2]/STATUS: "Fixed" is not a checklist status (NotAFinding, Open, Not_Applicable, Not_Reviewed; in CKLB not_a_finding, open, not_applicable, not_reviewed)${suffix}`,
    });
  });

  it('refuses a severity that is not a STIG severity, and a VULN without Vuln_Num or STATUS', async () => {
    const severity = write('severity.ckl', raw.replace('<SEVERITY_OVERRIDE>low</SEVERITY_OVERRIDE>', '<SEVERITY_OVERRIDE>critical</SEVERITY_OVERRIDE>'));
    await expect(readWith(ckl, severity)).rejects.toMatchObject({
      message: `${severity}: STIGS/iSTIG[1]/VULN[2]/SEVERITY_OVERRIDE: "critical" is not a STIG severity (high, medium, low or CAT I, CAT II, CAT III)${suffix}`,
    });
    const id = write('id.ckl', raw.replace('<VULN_ATTRIBUTE>Vuln_Num</VULN_ATTRIBUTE>', '<VULN_ATTRIBUTE>Vuln_Number</VULN_ATTRIBUTE>'));
    await expect(readWith(ckl, id)).rejects.toMatchObject({
      message: `${id}: STIGS/iSTIG[1]/VULN[1]/STIG_DATA[Vuln_Num]: missing; every rule names its group id (V-…)${suffix}`,
    });
    const status = write('no-status.ckl', raw.replace('<STATUS>Not_Applicable</STATUS>', ''));
    await expect(readWith(ckl, status)).rejects.toMatchObject({
      message: `${status}: STIGS/iSTIG[1]/VULN[1]/STATUS: missing for V-257777; set the status in STIG Viewer${suffix}`,
    });
  });

  it('refuses a checklist without a STIG', async () => {
    const empty = write('empty.ckl', '<?xml version="1.0"?><CHECKLIST><ASSET><HOST_NAME>h</HOST_NAME></ASSET><STIGS></STIGS></CHECKLIST>');
    await expect(readWith(ckl, empty)).rejects.toMatchObject({
      message: `${empty}: STIGS/iSTIG: missing; the checklist has no STIG: add one in STIG Viewer and save the checklist again${suffix}`,
    });
  });

  it('refuses CKLB of the wrong shape, naming the place', async () => {
    const cklb = JSON.parse(readFileSync(CKLB, 'utf8'));
    const rules = write('rules.cklb', { ...cklb, stigs: [{ ...cklb.stigs[0], rules: { 'V-1': {} } }] });
    await expect(readWith(ckl, rules)).rejects.toMatchObject({ message: `${rules}: stigs[0].rules: expected a list of rules${suffix}` });
    const ccis = write('ccis.cklb', { ...cklb, stigs: [{ ...cklb.stigs[0], rules: [{ ...cklb.stigs[0].rules[0], ccis: 'CCI-000366' }] }] });
    await expect(readWith(ckl, ccis)).rejects.toMatchObject({ message: `${ccis}: stigs[0].rules[0].ccis: expected a list of CCI ids${suffix}` });
    const status = write('status.cklb', { ...cklb, stigs: [{ ...cklb.stigs[0], rules: [{ ...cklb.stigs[0].rules[0], status: 'pass' }] }] });
    await expect(readWith(ckl, status)).rejects.toMatchObject({
      message: expect.stringContaining(`${status}: stigs[0].rules[0].status: "pass" is not a checklist status`),
    });
    const many = write('many.cklb', {
      ...cklb,
      stigs: [{ ...cklb.stigs[0], rules: [{ ...cklb.stigs[0].rules[0], ccis: Array.from({ length: 65 }, (_, i) => `CCI-${String(i).padStart(6, '0')}`) }] }],
    });
    await expect(readWith(ckl, many)).rejects.toMatchObject({
      message: `${many}: stigs[0].rules[0].ccis: more than 64 CCI references; a STIG rule has a few${suffix}`,
    });
    const none = write('none.cklb', { ...cklb, stigs: [] });
    await expect(readWith(ckl, none)).rejects.toMatchObject({
      message: `${none}: stigs: empty; the checklist has no STIG: add one in STIG Viewer and save the checklist again${suffix}`,
    });
  });
});
