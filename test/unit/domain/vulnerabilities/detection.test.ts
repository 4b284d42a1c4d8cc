import { detectionId, readDetections, type Detection } from '../../../../src/domain/vulnerabilities/detection';
import { PureJsHashing } from '../../../fakes/pure-js-hashing';

const GOOD: Detection = {
  id: 'VULN-0123456789abcdef0123',
  source: 'Trivy',
  finding_id: 'CVE-2024-3094',
  resource: 'registry.example/app:1.0: xz-libs 5.6.0-r0',
  title: 'xz: malicious code in distributed source',
  scanner_severity: 'CRITICAL',
  cvss: 10,
  detected_at: '2026-11-01T08:00:00Z',
  fix_available: true,
};
const CONFIGURATION: Detection = {
  id: 'VULN-ffffffffffffffffffff',
  source: 'Prowler',
  finding_id: 'iam_root_mfa_enabled',
  resource: 'arn:aws:iam::111122223333:root',
  title: 'Root MFA',
  scanner_severity: 'Critical',
  detected_at: '2026-11-01T08:00:00+02:00',
  kind: 'configuration',
};

/** What readDetections throws for one bad detection (or a bad list), as kind, code and the whole message. */
function problem(value: unknown): { kind: string; code: string; message: string } {
  try {
    readDetections(value, 'x');
  } catch (error) {
    const { kind, code, message } = error as { kind: string; code: string; message: string };
    return { kind, code, message };
  }
  throw new Error('readDetections accepted it');
}
const oneBad = (changes: Record<string, unknown>) => problem([{ ...GOOD, ...changes }]).message;
const without = (field: keyof Detection) => {
  const { [field]: _dropped, ...rest } = GOOD;
  return problem([rest]).message;
};
const NEEDS = (field: string) => `every detection needs "${field}" (docs/artifacts.md)`;

describe('readDetections', () => {
  it('returns good detections as they are, with or without the optional fields', () => {
    const minimal = {
      id: 'VULN-1',
      source: 'Nessus',
      finding_id: '19506',
      resource: '10.0.0.1',
      title: 'Scan information',
      scanner_severity: 'Info',
      detected_at: '2026-11-01',
    };
    const list = [GOOD, CONFIGURATION, minimal, { ...GOOD, id: 'VULN-2', cvss: 0, fix_available: false, kind: 'vulnerability' }];
    expect(readDetections(list, 'x')).toBe(list);
    expect(readDetections([], 'x')).toEqual([]);
  });

  it('refuses what is not a list, as invalid-report naming the file', () => {
    expect(problem({ vulnerabilities: [] })).toEqual({
      kind: 'invalid-input',
      code: 'invalid-report',
      message: 'x: vulnerabilities: expected an array, got an object; write "vulnerabilities": [ ... ] or leave it out',
    });
    expect(problem(null).message).toBe('x: vulnerabilities: expected an array, got null; write "vulnerabilities": [ ... ] or leave it out');
    expect(problem('VULN-1').message).toBe('x: vulnerabilities: expected an array, got "VULN-1"; write "vulnerabilities": [ ... ] or leave it out');
  });

  it.each<[string, unknown, string]>([
    ['a number', 3, 'number 3'],
    ['a string', 'CVE-2024-3094', '"CVE-2024-3094"'],
    ['null', null, 'null'],
    ['an array', [GOOD], 'an array'],
  ])('refuses an item that is %s', (_what, item, got) => {
    expect(problem([GOOD, item]).message).toBe(
      `x: vulnerabilities[1]: expected an object, got ${got}; write {"id", "source", "finding_id", "resource", "title", "scanner_severity", "detected_at"}`,
    );
  });

  it.each(['id', 'source', 'finding_id', 'resource', 'title', 'scanner_severity'] as const)(
    'refuses a detection without %s, or with it empty or not text',
    (field) => {
      expect(without(field)).toBe(`x: vulnerabilities[0].${field}: missing; ${NEEDS(field)}`);
      expect(oneBad({ [field]: '' })).toBe(`x: vulnerabilities[0].${field}: expected a non-empty string, got ""; ${NEEDS(field)}`);
      expect(oneBad({ [field]: ' \t' })).toBe(`x: vulnerabilities[0].${field}: expected a non-empty string, got " \\t"; ${NEEDS(field)}`);
      expect(oneBad({ [field]: 7 })).toBe(`x: vulnerabilities[0].${field}: expected a non-empty string, got number 7; ${NEEDS(field)}`);
      expect(oneBad({ [field]: null })).toBe(`x: vulnerabilities[0].${field}: expected a non-empty string, got null; ${NEEDS(field)}`);
    },
  );

  it('refuses a second detection with the same id, naming the first', () => {
    expect(problem([GOOD, CONFIGURATION, { ...CONFIGURATION, finding_id: 'other' }]).message).toBe(
      'x: vulnerabilities[2].id: duplicate "VULN-ffffffffffffffffffff" (first at vulnerabilities[1]); give each detection its own id',
    );
  });

  it.each<[string, unknown, string]>([
    ['missing', undefined, 'missing'],
    ['not a time', 'yesterday', '"yesterday" is not an ISO-8601 time'],
    ['a day that does not exist', '2026-02-30T08:00:00Z', '"2026-02-30T08:00:00Z" is not an ISO-8601 time'],
    ['an epoch number', 1762000000, 'number 1762000000 is not an ISO-8601 time'],
    ['empty', '', '"" is not an ISO-8601 time'],
  ])('refuses a detected_at that is %s', (_what, detectedAt, said) => {
    const message = detectedAt === undefined ? without('detected_at') : oneBad({ detected_at: detectedAt });
    expect(message).toBe(`x: vulnerabilities[0].detected_at: ${said}; write e.g. "2026-11-01T08:00:00Z"`);
  });

  it.each<[string, unknown, string]>([
    ['above 10', 10.1, 'number 10.1'],
    ['below 0', -1, 'number -1'],
    ['not a number', Number.NaN, 'number NaN'],
    ['text', '7.5', '"7.5"'],
    ['null', null, 'null'],
  ])('refuses a cvss %s', (_what, cvss, said) => {
    expect(oneBad({ cvss })).toBe(`x: vulnerabilities[0].cvss: ${said} is not a CVSS score; write a number from 0 to 10, or leave it out`);
  });

  it.each<[unknown, string]>([
    ['yes', '"yes"'],
    [1, 'number 1'],
    [null, 'null'],
  ])('refuses fix_available %j', (fix, said) => {
    expect(oneBad({ fix_available: fix })).toBe(
      `x: vulnerabilities[0].fix_available: expected true or false, got ${said}; write true or false, or leave it out`,
    );
  });

  it.each<[unknown, string]>([
    ['config', '"config"'],
    ['Vulnerability', '"Vulnerability"'],
    [null, 'null'],
  ])('refuses kind %j', (kind, said) => {
    expect(oneBad({ kind })).toBe(`x: vulnerabilities[0].kind: ${said} is not a kind of detection; write "vulnerability" or "configuration", or leave it out`);
  });

  it('refuses a field it does not know, so a misspelt one is not dropped', () => {
    expect(oneBad({ fixAvailable: true })).toBe(
      'x: vulnerabilities[0].fixAvailable: unknown field; a detection holds id, source, finding_id, resource, title, scanner_severity, aliases, cvss, detected_at, fix_available, kind',
    );
  });

  it('reads aliases, the other ids of the finding (the advisory reported under its CVE), and refuses anything but a list of ids', () => {
    expect(readDetections([{ ...GOOD, aliases: ['GHSA-p6mc-m468-83gw'] }], 'x')[0].aliases).toEqual(['GHSA-p6mc-m468-83gw']);
    expect(oneBad({ aliases: 'GHSA-p6mc-m468-83gw' })).toBe(
      'x: vulnerabilities[0].aliases: "GHSA-p6mc-m468-83gw" is not a list of ids; write the other ids of the finding, such as ["GHSA-p6mc-m468-83gw"], or leave it out',
    );
    expect(oneBad({ aliases: [''] })).toMatch(/^x: vulnerabilities\[0\]\.aliases: /);
  });

  it('names only the first problem, in the order of the list and of the checks', () => {
    const message = problem([GOOD, { ...GOOD, cvss: 11, severity: 'x' }]).message;
    expect(message).toBe(`x: vulnerabilities[1].id: duplicate "${GOOD.id}" (first at vulnerabilities[0]); give each detection its own id`);
    expect(oneBad({ title: 'a\nb', cvss: 11 })).toBe('x: vulnerabilities[0].cvss: number 11 is not a CVSS score; write a number from 0 to 10, or leave it out');
  });
});

describe('detectionId', () => {
  const hashing = new PureJsHashing();

  it('is VULN- and the first 20 hex digits of the SHA-256 of source, finding and resource, one per line', () => {
    expect(detectionId('Trivy', 'CVE-2024-3094', 'app: xz-libs', hashing)).toBe(`VULN-${hashing.sha256('Trivy\nCVE-2024-3094\napp: xz-libs').slice(0, 20)}`);
    expect(detectionId('Trivy', 'CVE-2024-3094', 'app: xz-libs', hashing)).toMatch(/^VULN-[0-9a-f]{20}$/);
  });

  it('changes with each part and not between runs', () => {
    const ids = [
      detectionId('A', 'B', 'C', hashing),
      detectionId('A', 'B', 'C', hashing),
      detectionId('X', 'B', 'C', hashing),
      detectionId('A', 'X', 'C', hashing),
      detectionId('A', 'B', 'X', hashing),
    ];
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(4);
  });
});
