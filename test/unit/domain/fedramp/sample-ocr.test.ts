import { sampleOcr, sampleOcrMarkdown, sampleOcrNote } from '../../../../src/domain/fedramp/sample-ocr';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { fedrampSchemaErrorsByGeneration } from '../../../support/fedramp-schemas';

const input = {
  packageUri: 'https://trust.example.com/fedramp/cpo.json',
  to: '2026-11-25',
  daily: new Map([
    [
      'KSI-IAM-APM',
      [
        { date: '2026-11-01', status: 'Not Implemented' as const },
        { date: '2026-11-02', status: 'Implemented' as const },
      ],
    ],
  ]),
  agencies: ['Department of Examples'],
  rules: builtInRules(),
};
const SAMPLE_OCR_NOTE = sampleOcrNote(input.rules);
const header = {
  packageUri: input.packageUri,
  rulesVersion: '2026.10.05.01',
  tool: { name: 'svc', version: '0.5.0' },
  generatedAt: '2026-11-25T00:00:00Z',
  json: 'ocr-sample.json',
};

describe('sampleOcr', () => {
  it("says it is a sample in a field FedRAMP's schema declares (so FedRAMP's viewer shows it), not only in sample and sampleNote", () => {
    const ocr = sampleOcr(input);
    expect(ocr).toMatchObject({ sample: true, sampleNote: SAMPLE_OCR_NOTE });
    expect(ocr.certificationDataChanges).toEqual([SAMPLE_OCR_NOTE, 'KSI-IAM-APM: Not Implemented → Implemented on 2026-11-02']);
    expect(SAMPLE_OCR_NOTE).toBe(
      'SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (FRC-CSO-PKG asks for a real or example OCR); no OCR has been recorded for this period.',
    );
  });

  it('cites FRC-CSO-PKG only where the rules release in use holds it (issue 34)', () => {
    const lacking = { rules: input.rules.rules.filter((r) => r.id !== 'FRC-CSO-PKG') };
    const ocr = sampleOcr({ ...input, rules: lacking });
    expect(ocr.sampleNote).toBe(
      'SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (an example in place of a recorded one); no OCR has been recorded for this period.',
    );
    expect((ocr.certificationDataChanges as string[])[0]).toBe(ocr.sampleNote);
    expect(sampleOcrMarkdown(ocr, header)).not.toContain('FRC-CSO-PKG');
  });

  it('is valid against every generation of FedRAMP schemas held (2026-07-15, 2026-09-17, 2026-10-08)', () => {
    expect(fedrampSchemaErrorsByGeneration('ocr', sampleOcr(input))).toEqual({
      'cr26-schemas': [],
      'cr26-schemas-2026-09-17': [],
      'cr26-schemas-2026-10-08': [],
    });
  });

  it('says it once in its twin: in bold under the title, not again among the changes', () => {
    const lines = sampleOcrMarkdown(sampleOcr(input), header).split('\n');
    expect(lines[0]).toBe('# Ongoing Certification Report (SAMPLE)');
    expect(lines.filter((l) => l.includes('SAMPLE: an example'))).toHaveLength(1);
    expect(lines).toContain('- KSI-IAM-APM: Not Implemented → Implemented on 2026-11-02');
  });
});
