import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const HASH = 'b8b7d4941762ae257015f68359c527947707be8281e3738bc85f1bc48cd25473';

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-generate-word-'));
  env = { SVC_HOME: join(tmp, 'home') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string) => join(tmp, name);
const run = (args: string[]) => svc(args, { env });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface WordParagraph {
  style: string | undefined;
  text: string;
}

/** The parts of a .docx a reader looks at: body paragraphs with their styles, field codes, and a few other parts. */
async function readDocx(
  file: string,
): Promise<{ paragraphs: WordParagraph[]; tables: string[][][]; fields: string[]; xml: string; core: string; settings: string; footer: string }> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const part = async (name: string) => {
    const entry = zip.file(name);
    if (entry === null) throw new Error(`${file} has no ${name}`);
    return entry.async('string');
  };
  const xml = await part('word/document.xml');
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map(([, body]) => ({
    style: /<w:pStyle w:val="([^"]+)"\/>/.exec(body)?.[1],
    text: unescape([...body.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('')),
  }));
  const tables = [...xml.matchAll(/<w:tbl>(.*?)<\/w:tbl>/g)].map(([, table]) =>
    [...table.matchAll(/<w:tr>(.*?)<\/w:tr>/g)].map(([, row]) =>
      [...row.matchAll(/<w:tc>(.*?)<\/w:tc>/g)].map(([, cell]) => unescape([...cell.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))),
    ),
  );
  const fields = [...xml.matchAll(/<w:instrText[^>]*>([^<]+)<\/w:instrText>/g)].map((m) => unescape(m[1]));
  return {
    paragraphs,
    tables,
    fields,
    xml,
    core: await part('docProps/core.xml'),
    settings: await part('word/settings.xml'),
    footer: await part('word/footer1.xml'),
  };
}

const styled = (paragraphs: WordParagraph[], ...styles: string[]) =>
  paragraphs.filter((p) => p.style !== undefined && styles.includes(p.style)).map((p) => `${p.style}: ${p.text}`);

/** PDF text of each .docx, as LibreOffice lays it out: one soffice run converts them all. */
function pdfTexts(files: string[]): string[] {
  const outDir = at('pdf');
  execFileSync('soffice', [`-env:UserInstallation=file://${at('lo-profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, ...files], {
    stdio: 'pipe',
    timeout: 120_000,
  });
  return files.map((file) =>
    execFileSync('pdftotext', ['-layout', join(outDir, file.replace(/^.*\//, '').replace(/\.docx$/, '.pdf')), '-'], { encoding: 'utf8' }),
  );
}

describe('svc generate docx|sar|sap', () => {
  let ssp: Awaited<ReturnType<typeof readDocx>>;
  let sar: Awaited<ReturnType<typeof readDocx>>;
  let sap: Awaited<ReturnType<typeof readDocx>>;
  let pdf: { ssp: string; sar: string; sap: string };
  let sarRun: ReturnType<typeof svc>;

  beforeAll(async () => {
    expect(run(['generate', 'docx', SAMPLE, '--out', at('ssp.docx')])).toEqual({ stdout: `SSP written to ${at('ssp.docx')}\n`, stderr: '', status: 0 });
    sarRun = run(['generate', 'sar', SAMPLE, '--out', at('sar.docx')]);
    expect(run(['generate', 'sap', SAMPLE, '--out', at('sap.docx')])).toEqual({ stdout: `SAP written to ${at('sap.docx')}\n`, stderr: '', status: 0 });
    [ssp, sar, sap] = await Promise.all([readDocx(at('ssp.docx')), readDocx(at('sar.docx')), readDocx(at('sap.docx'))]);
    const [sspText, sarText, sapText] = pdfTexts([at('ssp.docx'), at('sar.docx'), at('sap.docx')]);
    pdf = { ssp: sspText, sar: sarText, sap: sapText };
  }, 180_000);

  it('writes the SSP with a title, Heading 1/2 per section and control family, and a TOC field Word updates on opening', () => {
    expect(styled(ssp.paragraphs, 'Title', 'Heading1', 'Heading2')).toEqual([
      'Title: System Security Plan: contoso.onmicrosoft.com',
      'Heading1: Scope',
      'Heading1: Control implementation',
      'Heading2: AC Access Control',
      'Heading2: AU Audit and Accountability',
      'Heading2: IA Identification and Authentication',
      'Heading2: SC System and Communications Protection',
      'Heading1: Governance actions',
      'Heading1: Plan of action and milestones',
    ]);
    expect(ssp.fields[0]).toBe('TOC \\h \\o "1-2"');
    expect(ssp.settings).toContain('<w:updateFields/>');
    expect(ssp.xml.match(/<w:tblHeader\/>/g)).toHaveLength(7); // status summary, 4 families, governance, POA&M
    expect(ssp.footer).toMatch(/PAGE<\/w:instrText>.*NUMPAGES<\/w:instrText>/);
    expect(ssp.core).toContain(
      '<dc:title>System Security Plan: contoso.onmicrosoft.com</dc:title><dc:subject>FedRAMP 20x system security plan</dc:subject><dc:creator>svc 0.5.0</dc:creator><cp:lastModifiedBy>svc 0.5.0</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">2026-01-01T00:00:00Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2026-01-01T00:00:00Z</dcterms:modified>',
    );
    expect(ssp.paragraphs.map((p) => p.text)).toContain('sc-8 Transmission Confidentiality and Integrity: covered by 1 KSI.');
    expect(ssp.paragraphs.map((p) => p.text)).toContain(`Evidence: sample-baseline.json (sha256:${HASH}), 5 KSI results`);
  });

  it('converts with LibreOffice to a PDF that shows the headings, a control’s narrative and page numbers', () => {
    const text = pdf.ssp.replace(/\s+/g, ' ');
    for (const heading of ['System Security Plan:', 'Control implementation', 'AC Access Control', 'Governance actions', 'Plan of action and milestones'])
      expect(text).toContain(heading);
    expect(text).toContain('sc-8 Transmission Confidentiality and Integrity: covered by 1 KSI.');
    expect(text).toContain('Page 1 of');
  });

  it('gives the same bytes for the same input under SOURCE_DATE_EPOCH', () => {
    expect(run(['generate', 'docx', SAMPLE, '--out', at('ssp-again.docx')]).status).toBe(0);
    expect(sha256(readFileSync(at('ssp-again.docx')))).toBe(sha256(readFileSync(at('ssp.docx'))));
  });

  it('writes the SAR report beside a signed OSCAL SAR that ir validate verifies, and cites its digest and key', () => {
    const file = at('sar.sar.json');
    const digest = `sha256:${sha256(readFileSync(file))}`;
    const keyid = JSON.parse(readFileSync(`${file}.dsse.json`, 'utf8')).signatures[0].keyid as string;
    expect(sarRun).toEqual({
      stdout: `SAR written to ${at('sar.docx')}\nOSCAL SAR written to ${file} (${digest})\nSignature written to ${file}.dsse.json (ES256, key ${keyid})\n`,
      stderr: `Warning: no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${join(tmp, 'home', 'dev-signing-key.pem')}, created now; use your own key for a real assessment\n`,
      status: 0,
    });
    const check = run(['ir', 'validate', file, '--keyid', keyid]);
    expect([check.status, check.stdout.split('\n').slice(0, 3)]).toEqual([
      0,
      [`SAR ${file} verified`, `Digest: ${digest}`, `Signature: ES256 by key ${keyid} (${file}.dsse.json)`],
    ]);
    expect(styled(sar.paragraphs, 'Title', 'Heading1')).toEqual([
      'Title: Security Assessment Report: contoso.onmicrosoft.com',
      'Heading1: Scope',
      'Heading1: Method',
      'Heading1: Results',
      'Heading1: Risks',
      'Heading1: Signed assessment results',
    ]);
    expect(sar.paragraphs.map((p) => p.text).slice(-4)).toEqual([
      `OSCAL assessment results: ${file}`,
      `SHA-256: ${digest}`,
      `Signature: ES256 by key ${keyid} (${file}.dsse.json)`,
      `Verify the pair with: svc ir validate ${file}`,
    ]);
    const text = pdf.sar.replace(/\s+/g, ' ');
    expect(text).toContain('KSIs assessed: 5 (PASS 2, WARN 1, FAIL 2)');
    expect(text).toContain(`SHA-256: ${digest}`);
  });

  it('gives the same SAR report bytes again: the ECDSA signature changes, the signed SAR and its key do not', () => {
    const before = {
      docx: sha256(readFileSync(at('sar.docx'))),
      sar: sha256(readFileSync(at('sar.sar.json'))),
      envelope: sha256(readFileSync(at('sar.sar.json.dsse.json'))),
    };
    expect(run(['generate', 'sar', SAMPLE, '--out', at('sar.docx')]).status).toBe(0);
    const after = {
      docx: sha256(readFileSync(at('sar.docx'))),
      sar: sha256(readFileSync(at('sar.sar.json'))),
      envelope: sha256(readFileSync(at('sar.sar.json.dsse.json'))),
    };
    expect({ docx: after.docx, sar: after.sar }).toEqual({ docx: before.docx, sar: before.sar });
    expect(after.envelope).not.toBe(before.envelope);
  });

  it('writes the SAP with the KSIs and controls, the method and the schedule from evidence freshness', () => {
    expect(styled(sap.paragraphs, 'Title', 'Heading1')).toEqual([
      'Title: Security Assessment Plan: contoso.onmicrosoft.com',
      'Heading1: Scope',
      'Heading1: KSIs and controls',
      'Heading1: Method',
      'Heading1: Schedule',
    ]);
    expect(sap.paragraphs.map((p) => p.text)).toContain(
      'Due dates at 2026-01-01T00:00:00Z: evidence observed at the time shown is due again one validation period later.',
    );
    const text = pdf.sap.replace(/\s+/g, ' ');
    expect(text).toContain('Automated KSI evaluation (TEST)');
    expect(text).toContain('Re-validate 4 KSIs every 3 days: KSI-AC-02, KSI-AU-02, KSI-IA-02, KSI-SC-08');
    expect(sap.tables.at(-1)?.slice(0, 2)).toEqual([
      ['Due', 'KSI', 'Title', 'Every (days)', 'Last observed', 'Owner', 'State'],
      ['2026-11-05T14:03:12Z', 'KSI-IA-02', 'Phishing-resistant MFA for all users', '3', '2026-11-02T14:03:12Z', 'identity-team@agency.example', 'fresh'],
    ]);
  });

  it('refuses a missing --out (exit 2) and a missing input (exit 3), writing nothing', () => {
    const noOut = run(['generate', 'sap', SAMPLE]);
    expect([noOut.status, noOut.stdout]).toEqual([2, '']);
    expect(noOut.stderr).toContain('Missing required flag out');
    const missing = run(['generate', 'docx', at('missing.json'), '--out', at('never.docx')]);
    expect([missing.status, missing.stdout]).toEqual([3, '']);
    expect(() => readFileSync(at('never.docx'))).toThrow(/ENOENT/);
  });
});
