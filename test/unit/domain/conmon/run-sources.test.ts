import {
  checkSourceName,
  latestOfEachSource,
  lostDetections,
  mergedBundleFacts,
  namedSource,
  sourceKey,
  sourceStaleness,
  stateDetections,
  UNNAMED_SOURCE,
} from '../../../../src/domain/conmon/run-sources';
import { evidenceCadence } from '../../../../src/domain/fedramp/evidence-cadence';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import type { RunSummary } from '../../../../src/domain/conmon/run-record';
import type { Detection } from '../../../../src/domain/vulnerabilities/detection';

const detection = (id: string, source: string): Detection => ({
  id,
  source,
  finding_id: `F-${id}`,
  resource: 'host-1',
  title: 't',
  scanner_severity: 'High',
  detected_at: '2026-11-24T07:00:00Z',
});
const summary = (seq: number, source?: Record<string, unknown>): RunSummary =>
  ({ seq, id: `run-${seq}`, ...(source === undefined ? {} : { source }) }) as unknown as RunSummary;

describe('sourceKey: which source a run is the latest part of', () => {
  it.each([
    [{ tool: 'Nessus', tenant: '2 hosts' }, 'Nessus (2 hosts)'],
    [{ tool: 'Trivy' }, 'Trivy'],
    [{ tool: ' Trivy ', tenant: ' ' }, 'Trivy'],
    [{ tool: 'Nessus', tenant: 'prod', name: 'nessus-prod-hosts' }, 'nessus-prod-hosts'],
    [{ tenant: 'contoso' }, UNNAMED_SOURCE],
    [undefined, UNNAMED_SOURCE],
  ])('%j → %s', (source, key) => expect(sourceKey(source)).toBe(key));

  it("a --source name is kept as the report source's name, beside what the report said", () => {
    expect(namedSource({ tool: 'Nessus', tenant: 'prod' }, 'hosts')).toEqual({ tool: 'Nessus', tenant: 'prod', name: 'hosts' });
    expect(namedSource(undefined, 'hosts')).toEqual({ name: 'hosts' });
    expect(namedSource({ tool: 'Nessus' }, undefined)).toEqual({ tool: 'Nessus' });
  });

  it.each([
    ['', 'is empty or has spaces around it'],
    [' padded', 'is empty or has spaces around it'],
    ['x'.repeat(129), 'is longer than 128 characters'],
    ['line\nbreak', 'holds a control or format character'],
    ['zero\u200bwidth', 'holds a control or format character'],
  ])('refuses the --source name %j: invalid-source, the fix named', (name, problem) => {
    expect(() => checkSourceName(name)).toThrow(`${problem}; name the scanner and its scope, e.g. --source "nessus-prod-hosts"`);
  });

  it('takes 128 printable characters, letters of any script included', () => expect(checkSourceName(`ü${'x'.repeat(127)}`)).toHaveLength(128));
});

describe('latestOfEachSource: the state', () => {
  it('keeps the highest seq of each source, in seq order', () => {
    const runs = [
      summary(1, { tool: 'Nessus' }),
      summary(2, { tool: 'ScubaGear' }),
      summary(3, { tool: 'Nessus' }),
      summary(4),
      summary(5, { tool: 'Trivy' }),
      summary(6),
    ];
    expect(latestOfEachSource(runs).map((r) => r.seq)).toEqual([2, 3, 5, 6]);
    expect(latestOfEachSource([])).toEqual([]);
  });
});

describe('sourceStaleness: a source that stopped reporting', () => {
  const rules = builtInRules();
  const asOf = '2026-11-23T08:00:00Z';

  it('is stale once now is past its latest as_of plus the machine-based cadence, naming the rule, the cadence and when it was due', () => {
    const classB = evidenceCadence(rules, '20x', 'B', 'machine');
    expect(sourceStaleness(asOf, classB, new Date('2026-11-30T08:00:00Z'))).toBeUndefined();
    expect(sourceStaleness(asOf, classB, new Date('2026-11-30T08:00:01Z'))).toEqual({ rule: 'VDR-TFR-MVX', every: '7 days', due: '2026-11-30T08:00:00Z' });
  });

  it.each([
    ['20x', 'C', '2026-11-27T12:00:00Z', { rule: 'VDR-TFR-MVX', every: '3 days', due: '2026-11-26T08:00:00Z' }],
    ['20x', 'A', '2026-12-27T12:00:00Z', { rule: 'VDR-TFR-MVX', every: '1 month', due: '2026-12-23T08:00:00Z' }],
    ['rev5', 'C', '2026-12-27T12:00:00Z', { rule: 'VDR-TFR-MVF', every: '1 month', due: '2026-12-23T08:00:00Z' }],
    ['20x', 'A', '2026-11-27T12:00:00Z', undefined],
  ] as const)('%s Class %s at %s: the cadence the rules data gives the class', (type, cls, now, stale) => {
    expect(sourceStaleness(asOf, evidenceCadence(rules, type, cls, 'machine'), new Date(now))).toEqual(stale);
  });

  it('a run dated after now, or by no time, is not stale', () => {
    const cadence = evidenceCadence(rules, '20x', 'C', 'machine');
    expect(sourceStaleness(asOf, cadence, new Date('2026-11-20T00:00:00Z'))).toBeUndefined();
    expect(sourceStaleness('not a time', cadence, new Date('2030-01-01T00:00:00Z'))).toBeUndefined();
  });
});

describe('stateDetections and lostDetections', () => {
  it("gathers every source's latest detections; a source whose detections are not known names its tool", () => {
    const a = detection('1', 'Nessus');
    const b = detection('2', 'Trivy');
    expect(
      stateDetections([
        { source: { tool: 'Nessus' }, detections: [a] },
        { source: { tool: 'Trivy' }, detections: [b] },
        { source: { tool: 'ScubaGear' }, detections: undefined },
      ]),
    ).toEqual({ detections: [a, b], unknownTools: new Set(['ScubaGear']) });
  });

  it("an svc adapter's report without vulnerabilities[] lost them; an empty list or another producer did not", () => {
    expect(lostDetections({ tool: 'Nessus', adapter: 'svc-adapter-nessus' }, undefined)).toBe(true);
    expect(lostDetections({ tool: 'Nessus', adapter: 'svc-adapter-nessus' }, [])).toBe(false);
    expect(lostDetections({ tool: 'In-house' }, undefined)).toBe(false);
  });
});

describe('mergedBundleFacts: what evidence build carries of several reports', () => {
  it('every detection once by id, the oldest time, the shared schema version, and a source named after all', () => {
    const n = detection('1', 'Nessus');
    const facts = mergedBundleFacts([
      { generated_at: '2026-11-24T07:00:00Z', schema_version: '1', source: { tool: 'Nessus', tenant: '2 hosts' }, vulnerabilities: [n] },
      { generated_at: '2026-11-23T07:00:00Z', schema_version: '1', source: { tool: 'ScubaGear' }, vulnerabilities: [n, detection('2', 'ScubaGear')] },
    ]);
    expect(facts).toEqual({
      generated_at: '2026-11-23T07:00:00Z',
      schema_version: '1',
      source: { name: 'Nessus (2 hosts) + ScubaGear' },
      vulnerabilities: [n, detection('2', 'ScubaGear')],
    });
  });

  it('one report: its own facts; reports without detections or times: none claimed', () => {
    expect(mergedBundleFacts([{ generated_at: '2026-11-24T07:00:00Z', source: { tool: 'Trivy' }, vulnerabilities: [] }])).toEqual({
      generated_at: '2026-11-24T07:00:00Z',
      source: { tool: 'Trivy' },
      vulnerabilities: [],
    });
    expect(mergedBundleFacts([{ source: { tool: 'A' } }, { generated_at: '2026-11-24T07:00:00Z', schema_version: '2', source: { tool: 'A' } }])).toEqual({
      source: { tool: 'A' },
    });
  });
});
