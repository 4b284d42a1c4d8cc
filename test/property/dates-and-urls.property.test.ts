import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_DAY, LAST_DAY } from '../../src/domain/encoding/iso-time';
import { InvalidInputError, UsageError } from '../../src/domain/errors';
import { readFedrampProfile } from '../../src/domain/fedramp/profile';
import { parseDay, parseNow } from '../../src/interfaces/cli/flags';
import { FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { svc } from '../support/run-svc';
import { SEED } from './bad-input';

/*
 * No date string and no profile URL string makes svc exit 70 (an internal error): a date whose business-day or month
 * arithmetic would leave four-digit years, a day that is not on the calendar, a javascript: package URI, ... are
 * one-line usage (exit 2) or input (exit 3) errors naming the flag or the key. The parsers are checked over many
 * strings; the built CLI over fewer, each a process.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Strings shaped like ISO-8601 dates and times, weighted to the edges: years 0000-9999 and beyond, months 00-13, days 00-32, 24:00, odd zones. */
const isoish = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((y) => pad(y, 4)),
      fc.constantFrom('1969', '1970', '2999', '3000', '9999', '+275760', '-000001', '10000', '0000'),
    ),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.option(
      fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.constantFrom('Z', '+14:00', '-12:00', '+23:59', '-24:00', '', '.999Z')),
    ),
  )
  .map(([y, m, d, t]) => `${y}-${pad(m)}-${pad(d)}${t === null ? '' : `T${pad(t[0])}:${pad(t[1])}:00${t[2]}`}`);
const dateString = fc.oneof(
  { weight: 4, arbitrary: isoish },
  { weight: 1, arbitrary: fc.string() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '9999-12-31',
      '0000-01-01',
      '2027-02-29',
      '2026-11-31',
      '1969-12-31T23:59:59Z',
      '2999-12-31T23:59:59-05:00',
      ' 2026-11-30',
      '2026-11-30\n',
    ),
  },
);

/** URL strings, weighted to what a profile must not publish. */
const urlString = fc.oneof(
  { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.string() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'http://trust.example.com/cpo.json',
      'http://localhost:8080/cpo.json',
      'https://u:p@trust.example.com/cpo.json',
      'https://trust.example.com/cpo.json?x#y',
      'https://',
      'https:trust.example.com',
      'https://trust.example.com/\u0000',
      'https://trust.example.com/é',
      'https://[::1/',
      '//trust.example.com/cpo.json',
      'cpo.json',
      '',
    ),
  },
);

describe('the date flags: any string is a date in 1970-2999 or a usage error naming the flag', () => {
  it('parseNow and parseDay', () => {
    fc.assert(
      fc.property(dateString, (value) => {
        for (const parse of [(v: string) => parseNow(v, '--finish'), (v: string) => new Date(`${parseDay(v, '--finish')}T00:00:00Z`)]) {
          let date: Date | undefined;
          try {
            date = parse(value);
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
            expect((error as Error).message.startsWith(`--finish ${value}: `)).toBe(true);
            continue;
          }
          const day = date!.toISOString().slice(0, 10);
          expect(day >= FIRST_DAY && day <= LAST_DAY).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('the profile URLs: any string is an https (or local http) URL svc can resolve against, or an input error naming the key', () => {
  it('readFedrampProfile', () => {
    fc.assert(
      fc.property(urlString, fc.constantFrom('package_uri', 'evidence_base_uri'), (value, key) => {
        let uri: string | undefined;
        try {
          uri = readFedrampProfile({ [key]: value }, (path, problem) => {
            throw new InvalidInputError('invalid-config', `c.json: ${path}: ${problem}`);
          })[key as 'package_uri'];
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidInputError);
          expect((error as Error).message.startsWith(`c.json: fedramp.${key}: `)).toBe(true);
          expect((error as Error).message).not.toMatch(/[\n\r]/);
          return;
        }
        const url = new URL('avi.json', uri);
        expect(url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))).toBe(true);
        expect(`${uri}/evidence/${'0'.repeat(64)}`).toMatch(/^https?:\/\/[^\s?#]+$/);
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('the built CLI never exits 70 on a date flag or a profile URL', () => {
  let tmp: string;
  let runs = 0;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'svc-dates-urls-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** A fresh directory with a profile (the URLs given) validated against FedRAMP's schemas. */
  function dir(urls: { package_uri?: string; evidence_base_uri?: string } = {}): string {
    const d = join(tmp, String((runs += 1)));
    mkdirSync(d);
    const fedramp = {
      type: '20x',
      class: 'B',
      package_uri: 'https://trust.example.com/fedramp/cpo.json',
      agencies: [{ name: 'Department of Examples' }],
      ...urls,
    };
    writeFileSync(join(d, 'svc.config.json'), JSON.stringify({ fedramp, fedramp_schemas: FEDRAMP_SCHEMAS }));
    return d;
  }
  const run = (d: string, args: string[]) => svc(args, { cwd: d, env: { SVC_HOME: join(d, '.svc'), SVC_CACHE_DIR: join(tmp, 'cache') } });
  /** Exit 0, or one `Error:` line naming `name` with exit 2 or 3. */
  const honest = (r: { status: number | null; stderr: string }, name: string) => {
    if (r.status === 0) return;
    expect(r.status === 2 || r.status === 3 ? r.stderr : r).toMatch(new RegExp(`^Error: [^\\n]*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*\\n$`));
  };

  const DATE_COMMANDS: [string, string, (value: string) => string[]][] = [
    [
      '--finish',
      'fedramp scn',
      (v) => ['fedramp', 'scn', '--type', 'adaptive', '--summary', 'x', '--finish', v, '--now', '2026-11-25T00:00:00Z', '--draft', '--out', 'scn.json'],
    ],
    ['--to', 'fedramp ocr', (v) => ['fedramp', 'ocr', '--to', v, '--now', '2026-11-25T00:00:00Z', '--draft', '--out', 'ocr.json']],
    [
      '--occurred-at',
      'fedramp incident',
      (v) => [
        'fedramp',
        'incident',
        '--type',
        'initial',
        '--summary',
        'x',
        '--n',
        '3',
        '--occurred-at',
        v,
        '--now',
        '2999-12-31T23:59:59Z',
        '--draft',
        '--out',
        'i.json',
      ],
    ],
    ['--now', 'fedramp ocr', (v) => ['fedramp', 'ocr', '--now', v, '--draft', '--out', 'ocr.json']],
    ['--to', 'vuln report', (v) => ['vuln', 'report', '--format', 'vdr', '--to', v]],
  ];

  it.each(DATE_COMMANDS)('%s of svc %s', (flag, _command, args) => {
    fc.assert(
      fc.property(dateString, (value) => {
        fc.pre(!value.startsWith('-'));
        const d = dir();
        honest(run(d, args(value)), flag);
      }),
      { seed: SEED, numRuns: 12 },
    );
  });

  it.each([
    [
      'svc fedramp scn',
      ['fedramp', 'scn', '--type', 'adaptive', '--summary', 'x', '--finish', '2026-12-18', '--now', '2026-11-25T00:00:00Z', '--draft', '--out', 'scn.json'],
    ],
    ['svc fedramp ocr', ['fedramp', 'ocr', '--now', '2026-11-25T00:00:00Z', '--draft', '--out', 'ocr.json']],
  ])('fedramp.package_uri and fedramp.evidence_base_uri of %s', (_name, args) => {
    fc.assert(
      fc.property(urlString, fc.constantFrom('package_uri', 'evidence_base_uri'), (value, key) => {
        honest(run(dir({ [key]: value }), args), `fedramp.${key}`);
      }),
      { seed: SEED, numRuns: 12 },
    );
  });
});
