import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredEvidence, EVIDENCE_SOURCES, evidenceTypeOf } from '../../../../src/domain/fedramp/evidence-type';
import { VENDOR_PARSERS } from '../../../../src/infrastructure/scans/registry';
import { fedrampControlId } from '../../../../src/domain/fedramp/sdr';
import { readProviderStatements } from '../../../../src/domain/fedramp/statements';
import { quotedMarkdown } from '../../../../src/domain/fedramp/twin';
import { FEDRAMP_SCHEMAS } from '../../../support/fedramp-schemas';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const read = (text: string) => readProviderStatements(text, 'statements.md', rules);

describe("the provider's statements file", () => {
  it('reads ## <id> sections with ### Validation and ### Status, ignoring the title and what comes before', () => {
    const s = read(
      [
        '\uFEFF# Statements of Example Cloud',
        'intro text',
        '',
        '## KSI-IAM-APM',
        'Passkeys only.',
        '',
        'Second paragraph.',
        '### Validation',
        'Daily.',
        '### Status',
        'Alternative Implementation',
        '',
        '## AC-02 (01)',
        'Automated.',
        '### Status',
        'Not Applicable',
      ].join('\r\n'),
    );
    expect([...s.byId.keys()]).toEqual(['KSI-IAM-APM']);
    expect(s.byId.get('KSI-IAM-APM')).toEqual({
      id: 'KSI-IAM-APM',
      line: 4,
      implementation: ['Passkeys only.\n\nSecond paragraph.'],
      validation: ['Daily.'],
      status: { value: 'Implemented', written: 'Alternative Implementation' },
    });
    expect(s.byControl.get('ac-2.1')).toMatchObject({ id: 'AC-02 (01)', implementation: ['Automated.'], status: { value: null, written: 'Not Applicable' } });
  });

  it('keeps fenced code as written, headings inside it included', () => {
    const s = read(['## VDR-TFR-PVR', 'We run:', '```', '## not a heading', '### nor this', '```', 'Done.'].join('\n'));
    expect(s.byId.get('VDR-TFR-PVR')!.implementation).toEqual(['We run:\n```\n## not a heading\n### nor this\n```\nDone.']);
  });

  it('resolves an earlier FedRAMP id and says so; refuses a retired one with its reason', () => {
    expect(read('## KSI-IAM-02\ntext').byId.get('KSI-IAM-APM')).toMatchObject({ id: 'KSI-IAM-APM', written: 'KSI-IAM-02' });
    expect(() => read('## KSI-CMT-05\ntext')).toThrow(
      'statements.md:1: ## KSI-CMT-05: retired in CR26 2026.10.05.01; remove the statement or move it to the rule that replaced it',
    );
  });
});

describe('SDR parts', () => {
  const declared = declaredEvidence(VENDOR_PARSERS.map((p) => p.info));

  it("writes every evidenceType svc may choose from the SDR schema's enum", () => {
    const schema = JSON.parse(readFileSync(join(FEDRAMP_SCHEMAS, 'fedramp-security-decision-record-schema-2026-06-24.json'), 'utf8'));
    const allowed: string[] = schema.$defs.evidence.properties.evidenceType.enum;
    for (const type of [...EVIDENCE_SOURCES.map((s) => s.type), ...declared.values()]) expect(allowed).toContain(type);
    expect(allowed).toContain(evidenceTypeOf('anything', 'machine', declared));
    expect(allowed).toContain(evidenceTypeOf('anything', 'non-machine', declared));
  });

  it.each(VENDOR_PARSERS.map((p) => [p.info.vendor, p.info.tool, p.info.evidence]))(
    'calls evidence from svc adapter run %s (%s) what the parser declares, %s, with a version after the name too',
    (_vendor, tool, type) => {
      expect(evidenceTypeOf(tool, 'machine', declared)).toBe(type);
      expect(evidenceTypeOf(`${tool} 2.7.0`, 'machine', declared)).toBe(type);
      expect(evidenceTypeOf(`${tool} Operator`, 'machine', declared)).toBe(type);
      expect(evidenceTypeOf(tool.toUpperCase(), 'non-machine', declared)).toBe('Policy');
    },
  );

  it.each([
    ['AWS CloudTrail', 'Log'],
    ['Splunk audit logs', 'Log'],
    ['CodeQL', 'Report'],
    ['Tenable.io', 'Report'],
    ['CIS Benchmark runner', 'Configuration'],
    ['Heimdall', 'Configuration'],
    ['Lula', 'Report'],
    ['in-house checker', 'Report'],
  ])('calls evidence from %s, a tool svc has no adapter for, %s', (tool, type) => {
    expect(evidenceTypeOf(tool, 'machine', declared)).toBe(type);
  });

  it("takes a tool's declared type before the words of its name", () => {
    expect(evidenceTypeOf('Config Log Scanner', 'machine', new Map())).toBe('Log');
    expect(evidenceTypeOf('Config Log Scanner', 'machine', declaredEvidence([{ tool: 'Config Log Scanner', evidence: 'Report' }]))).toBe('Report');
    expect(evidenceTypeOf('Config Log Scanner v1.2', 'machine', declaredEvidence([{ tool: 'Config Log Scanner', evidence: 'Report' }]))).toBe('Report');
    expect(evidenceTypeOf('Config Log Scanners', 'machine', declaredEvidence([{ tool: 'Config Log Scanner', evidence: 'Report' }]))).toBe('Log');
  });

  it('writes control ids as FedRAMP does', () => {
    expect(['ac-2', 'ac-2.1', 'sc-12.13', 'pe-3'].map(fedrampControlId)).toEqual(['AC-02', 'AC-02 (01)', 'SC-12 (13)', 'PE-03']);
  });

  it("quotes the provider's Markdown so it stays inside the twin, raw HTML as text", () => {
    expect(quotedMarkdown('# Title\n\n<script>x</script> & co')).toEqual(['> # Title', '>', '> &lt;script>x&lt;/script> &amp; co']);
  });

  it('keeps what is already backslash-escaped (svc text as markdownLiteral wrote it), so the twin shows "<", not "&lt;"', () => {
    expect(quotedMarkdown('Prowler \\<prowler_version> \\& co, \\\\<b> a\\\\ & b')).toEqual(['> Prowler \\<prowler_version> \\& co, \\\\&lt;b> a\\\\ &amp; b']);
  });
});
