import type { TrustRepresentation } from '../../../src/application/trust/build-trust-document';
import type { BuildTrustDocumentInput } from '../../../src/application/trust/trust-documents';
import { SnapshotDocuments, SNAPSHOT_LIMITS_DEFAULT, type SnapshotDocumentBuilder } from '../../../src/application/trust/snapshot-documents';
import type { SnapshotBounds } from '../../../src/application/trust/snapshot-store';
import { ConfigError, NotFoundError } from '../../../src/domain/errors';

const LISTING = { documents: [], authentication: [] };
const input = (
  document: BuildTrustDocumentInput['document'],
  format: BuildTrustDocumentInput['format'] = 'json',
  snapshot = '2026-11-30',
  audience?: BuildTrustDocumentInput['audience'],
): BuildTrustDocumentInput => ({
  document,
  format,
  listing: LISTING,
  snapshot,
  ...(audience === undefined ? {} : { audience }),
});
const at = (run_seq: number, journal_seq: number): SnapshotBounds => ({ run_seq, journal_seq });

/**
 * Builders of snapshots that note what they were asked and by which builder, and answer when the test opens their
 * gate: `size` bytes of body naming the snapshot, document, format and audience.
 */
class FakeBuilders {
  readonly opened: string[] = [];
  readonly built: string[] = [];
  running = 0;
  peak = 0;
  private gates: (() => void)[] = [];
  gated = false;
  size = 100;
  fail?: (input: BuildTrustDocumentInput) => unknown;

  open = (bounds: SnapshotBounds): SnapshotDocumentBuilder => {
    const name = `${bounds.run_seq}:${bounds.journal_seq}#${this.opened.length + 1}`;
    this.opened.push(name);
    return {
      execute: async (i) => {
        this.running += 1;
        this.peak = Math.max(this.peak, this.running);
        try {
          if (this.gated) await new Promise<void>((resolve) => this.gates.push(resolve));
          this.built.push(`${name} ${i.document}.${i.format}${i.audience ? ` ${JSON.stringify(i.audience)}` : ''}`);
          const failure = this.fail?.(i);
          if (failure !== undefined) throw failure;
          const text = `${bounds.run_seq}:${bounds.journal_seq} ${i.snapshot} ${i.document}.${i.format} ${JSON.stringify(i.audience ?? {})}`.padEnd(
            this.size,
            '.',
          );
          return {
            document: i.document,
            format: i.format,
            mediaType: 'application/json',
            body: new TextEncoder().encode(text),
            sha256: 'x',
            state: { journal: { seq: bounds.journal_seq }, asOf: '2026-11-30T00:00:00Z', written: '2026-11-30T00:00:00Z', key: 'k' },
          };
        } finally {
          this.running -= 1;
        }
      },
    };
  };

  /** Lets every gated build through. */
  release(): void {
    this.gated = false;
    for (const open of this.gates.splice(0)) open();
  }
}

const text = (r: TrustRepresentation) => new TextDecoder().decode(r.body).replace(/\.+$/, '');
const turns = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SnapshotDocuments (?snapshot=): built once, kept byte-bounded, a few builds at a time, a bounded queue', () => {
  it('builds each representation once and answers it from what it kept afterwards, one builder per snapshot for the builds under way', async () => {
    const fake = new FakeBuilders();
    const docs = new SnapshotDocuments(fake.open);
    expect(docs.limits).toEqual(SNAPSHOT_LIMITS_DEFAULT);
    expect(SNAPSHOT_LIMITS_DEFAULT).toEqual({ builds: 1, waiting: 32, keptBytes: 64 * 2 ** 20, retryAfterSeconds: 10 });
    fake.gated = true;
    // The JSON and the page of one snapshot's SDR, asked for together, three times each: one builder, two builds.
    const first = Promise.all([1, 2, 3].flatMap(() => [docs.execute(at(2, 5), input('sdr')), docs.execute(at(2, 5), input('sdr', 'html'))]));
    await turns();
    fake.release();
    expect((await first).map(text)).toEqual([1, 2, 3].flatMap(() => ['2:5 2026-11-30 sdr.json {}', '2:5 2026-11-30 sdr.html {}']));
    expect(fake.opened).toEqual(['2:5#1']);
    expect(fake.built).toEqual(['2:5#1 sdr.json', '2:5#1 sdr.html']);
    for (let i = 0; i < 5; i++) expect(text(await docs.execute(at(2, 5), input('sdr', 'html')))).toBe('2:5 2026-11-30 sdr.html {}');
    expect(fake.built).toHaveLength(2);
    // Another document of the snapshot after those builds ended: a new builder (nothing held between builds).
    await docs.execute(at(2, 5), input('vdr'));
    expect(fake.opened).toEqual(['2:5#1', '2:5#2']);
    expect(docs.counts).toEqual({ started: 3, refused: 0, peakRunning: 1 });
  });

  it('keys a representation by snapshot, period end, document, format and, for incidents only, the audience', async () => {
    const fake = new FakeBuilders();
    const docs = new SnapshotDocuments(fake.open);
    const asked = [
      docs.execute(at(2, 5), input('sdr')),
      docs.execute(at(3, 7), input('sdr', 'json', '2027-02-28')),
      docs.execute(at(2, 5), input('sdr', 'json', '2026-11-30', { all: true })),
      docs.execute(at(2, 5), input('incidents', 'json', '2026-11-30', { all: true })),
      docs.execute(at(2, 5), input('incidents', 'json', '2026-11-30', { agency: 'Department of Examples' })),
      docs.execute(at(2, 5), input('incidents', 'json', '2026-11-30', {})),
    ];
    expect((await Promise.all(asked)).map(text)).toEqual([
      '2:5 2026-11-30 sdr.json {}',
      '3:7 2027-02-28 sdr.json {}',
      '2:5 2026-11-30 sdr.json {}',
      '2:5 2026-11-30 incidents.json {"all":true}',
      '2:5 2026-11-30 incidents.json {"agency":"Department of Examples"}',
      '2:5 2026-11-30 incidents.json {}',
    ]);
    expect(fake.built.map((b) => b.replace(/#\d+/, ''))).toEqual([
      '2:5 sdr.json',
      '3:7 sdr.json',
      '2:5 incidents.json {"all":true}',
      '2:5 incidents.json {"agency":"Department of Examples"}',
      '2:5 incidents.json {}',
    ]);
  });

  it('builds at most `builds` at once, queues `waiting` more, and refuses past them with busy; a build shared is never refused', async () => {
    const fake = new FakeBuilders();
    const docs = new SnapshotDocuments(fake.open, { builds: 2, waiting: 3 });
    fake.gated = true;
    const accepted = [1, 2, 3, 4, 5].map((n) => docs.execute(at(n, n), input('sdr')));
    const shared = docs.execute(at(5, 5), input('sdr'));
    await expect(docs.execute(at(6, 6), input('sdr'))).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'busy',
      message: 'the server is building documents of OCR snapshots (2 at a time, 3 more waiting, the most it queues); retry after the Retry-After seconds',
    });
    await turns();
    expect([fake.running, fake.opened]).toEqual([2, ['1:1#1', '2:2#2']]);
    fake.release();
    expect((await Promise.all([...accepted, shared])).map(text)).toEqual(['1:1', '2:2', '3:3', '4:4', '5:5', '5:5'].map((s) => `${s} 2026-11-30 sdr.json {}`));
    expect([fake.peak, docs.counts]).toEqual([2, { started: 5, refused: 1, peakRunning: 2 }]);
    // Room again: the refused one builds now.
    expect(text(await docs.execute(at(6, 6), input('sdr')))).toBe('6:6 2026-11-30 sdr.json {}');
  });

  it('keeps at most keptBytes of answers, the least recently used dropped first; an answer larger than that is served and not kept', async () => {
    const fake = new FakeBuilders();
    fake.size = 1000;
    // Room for three answers of 1,000 bytes and their keys (about 600 bytes each).
    const docs = new SnapshotDocuments(fake.open, { keptBytes: 5000 });
    for (const n of [1, 2, 3]) await docs.execute(at(n, n), input('sdr'));
    expect(docs.bytes).toBeLessThanOrEqual(5000);
    await docs.execute(at(1, 1), input('sdr')); // 1 is now the most recently used
    await docs.execute(at(4, 4), input('sdr')); // drops 2
    expect(fake.built).toHaveLength(4);
    await docs.execute(at(1, 1), input('sdr'));
    await docs.execute(at(3, 3), input('sdr'));
    expect(fake.built).toHaveLength(4);
    await docs.execute(at(2, 2), input('sdr'));
    expect(fake.built.map((b) => b.slice(0, 3))).toEqual(['1:1', '2:2', '3:3', '4:4', '2:2']);
    expect(docs.bytes).toBeLessThanOrEqual(5000);
    fake.size = 6000;
    for (let i = 0; i < 2; i++) expect(text(await docs.execute(at(9, 9), input('sdr')))).toBe('9:9 2026-11-30 sdr.json {}');
    expect(fake.built.filter((b) => b.startsWith('9:9'))).toHaveLength(2);
    expect(docs.bytes).toBeLessThanOrEqual(5000);
  });

  it("keeps a snapshot's NotFoundError like an answer; any other failure is passed on and tried again", async () => {
    const fake = new FakeBuilders();
    const docs = new SnapshotDocuments(fake.open);
    fake.fail = (i) =>
      i.document === 'metrics'
        ? new NotFoundError('no-ksi-metrics', 'the offering is rev5 Class B: KSI metrics (SDR-CSX-KMT) are kept for 20x offerings only')
        : i.document === 'cpo'
          ? new ConfigError('invalid-config', 'svc.config.json: fedramp.cpo is missing')
          : undefined;
    for (let i = 0; i < 3; i++) await expect(docs.execute(at(2, 5), input('metrics'))).rejects.toMatchObject({ code: 'no-ksi-metrics' });
    for (let i = 0; i < 3; i++) await expect(docs.execute(at(2, 5), input('cpo'))).rejects.toMatchObject({ code: 'invalid-config' });
    expect(fake.built.filter((b) => b.includes('metrics'))).toHaveLength(1);
    expect(fake.built.filter((b) => b.includes('cpo'))).toHaveLength(3);
  });
});
