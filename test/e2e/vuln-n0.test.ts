import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';
import { SAMPLE_DETECTIONS, vulnerabilityReport, writeVulnerabilityConfig } from '../support/vulnerabilities';

/** `svc vuln evaluate --n 0` by the release in use (VER-EVA-EPA): 2026.07.14.01 refuses N0; 2026.10.05.01, the bundled data's release, offers it. */
let work: string;
const R1005 = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json');
const R0714 = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.07.14.01.json');
const run = (args: string[], rules?: string): SvcRun =>
  svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc'), ...(rules === undefined ? {} : { SVC_FEDRAMP_RULES: rules }) } });

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-vuln-n0-'));
  mkdirSync(join(work, 'r'));
  writeVulnerabilityConfig(work);
  writeFileSync(join(work, 'r/1.json'), JSON.stringify(vulnerabilityReport('2026-12-07T00:00:00Z', [SAMPLE_DETECTIONS.API])));
  expect(run(['conmon', 'process', 'r/1.json']).status).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('svc vuln evaluate --n 0 (N0, VER-EVA-EPA)', () => {
  it('is refused in one line, exit 3, with a release that rates N1 to N5', () => {
    const r = run(['vuln', 'evaluate', 'CVE-2026-1000', '--n', '0', '--reason', 'disabled', '--by', 'ada', '--now', '2026-12-08T00:00:00Z'], R0714);
    expect({ status: r.status, stderr: r.stderr }).toEqual({
      status: 3,
      stderr: 'Error: --n 0: CR26 2026.07.14.01 rates N1 to N5 (VER-EVA-EPA); use --n 1, or a release that offers N0 (SVC_FEDRAMP_RULES)\n',
    });
  });

  it('is recorded with 2026.10.05.01: no mitigation due, no incident; the VDR says N0 in words and warns once', () => {
    const r = run(
      [
        'vuln',
        'evaluate',
        'CVE-2026-1000',
        '--n',
        'N0',
        '--mitigated',
        'partial',
        '--reason',
        'service disabled',
        '--by',
        'ada',
        '--now',
        '2026-12-08T00:00:00Z',
        '--json',
      ],
      R1005,
    );
    expect(r.status).toBe(0);
    const v = JSON.parse(r.stdout).vulnerability;
    expect(v).toMatchObject({ current_n: 0, incident: false, overdue: { is: false } });
    expect(v.due.mitigation).toBeUndefined();
    const vdr = run(['vuln', 'report', '--format', 'vdr', '--now', '2026-12-09T00:00:00Z', '--json'], R1005);
    expect(vdr.status).toBe(0);
    expect(vdr.stderr).toBe(
      "Warning: N0 (VER-EVA-EPA, CR26 2026.10.05.01) is not among the schema's N-ratings N1 to N5: 1 vulnerability carries it in potentialAgencyImpact only (no currentRating, targetRating or reduction event to it)\n",
    );
    const detail = JSON.parse(vdr.stdout).vulnerabilities[0];
    expect(detail.currentRating).toBeUndefined();
    expect(detail.potentialAgencyImpact).toMatch(
      /^N0: service disabled \(N0, VER-EVA-EPA 2026\.10\.05\.01, is not in the schema's N-ratings N1 to N5: no currentRating, no reduction event to N0 written\)$/,
    );
  });
});
