import { CONMON_EVENT_SCHEMA, type ConmonEvent } from '../../src/domain/conmon/conmon-event';
import { UsageError } from '../../src/domain/errors';
import type { DeliveryReport, SecurityEventSinks } from '../../src/ports/security-event-sink';

/** A spec the harness's SecurityEventSinks opens, and the name (`sink`) it must be given: as configured, no secrets. */
export interface SinkSpec {
  spec: string;
  name: string;
}

/** A spec whose destination fails every attempt for real, with the report a delivery to it must give. */
export interface FailingSinkSpec extends SinkSpec {
  attempts: number;
  error: string;
}

export interface SinksHarness {
  sinks: SecurityEventSinks;
  /** Specs whose destination takes events: at least two, of every kind the implementation has. */
  working: SinkSpec[];
  /** At least one spec whose destination fails. */
  failing: FailingSinkSpec[];
  /**
   * The events that arrived at the destination of `spec` (a working one), decoded from what the destination got, in
   * the order they arrived, once at least `count` have; any arrival before the count is reached is in the answer.
   */
  received(spec: string, count: number): Promise<ConmonEvent[]>;
  /** Stops and removes what the harness started. */
  cleanup(): Promise<void>;
}

const RUN_ID = '5c7d1f0e9a8b6c4d2e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c2d';

/** Event n of a run: every kind of JSON value in `data`, null subjects, and text a wire format must carry unchanged. */
function eventNumber(n: number, overrides: Partial<ConmonEvent> = {}): ConmonEvent {
  return {
    schema: CONMON_EVENT_SCHEMA,
    event_id: `3f2b1c0d-9e8f-5a7b-8c6d-${String(n).padStart(12, '0')}`,
    kind: 'poam.opened',
    time: `2026-11-02T14:05:0${n % 10}.125Z`,
    severity: 'warning',
    run: { id: RUN_ID, seq: 7, input: { name: 'baseline.json', sha256: 'ab'.repeat(32) } },
    ksi_id: 'KSI-IAM-01',
    poam_id: `POAM-${String(n).padStart(4, '0')}`,
    summary: `event ${n}: POA&M ouvert → "KSI-IAM-01" [risk] high ✓`,
    data: { status: 'Open', due: '2026-12-02', counts: { fail: n, pass: 0 }, controls: ['ac-2', 'ia-2.1'], overdue: false, ratio: 0.25, note: null },
    ...overrides,
  };
}

const A = [
  eventNumber(1),
  eventNumber(2, { kind: 'drift.detected', severity: 'critical', poam_id: null, summary: 'drift: line one\nline two\ttabbed \\ backslash ]' }),
  eventNumber(3, { kind: 'run.recorded', severity: 'info', ksi_id: null, poam_id: null, data: {} }),
];
const B = [
  eventNumber(4, { kind: 'poam.closed', severity: 'notice' }),
  eventNumber(5, { kind: 'poam.overdue', severity: 'error', time: '2026-11-03T00:00:00Z' }),
];
const C = [eventNumber(6, { kind: 'poam.risk-changed', data: { from: 'moderate', to: 'high' } })];

function deepFrozen<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What `act` threw; undefined when it did not throw. */
function thrown(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  return undefined;
}

const delivered = (s: SinkSpec, count: number): DeliveryReport => ({ sink: s.name, delivered: count, attempts: 1 });
const failed = (s: FailingSinkSpec): DeliveryReport => ({ sink: s.name, delivered: 0, attempts: s.attempts, error: s.error });

/**
 * What every SECURITY_EVENT_SINKS must do: one sink per spec, named without secrets; each event delivered once, in
 * order, exactly as given; a failing destination reported as data (never thrown) without holding up the others;
 * nothing done for no events; specs it cannot take refused as usage errors that repeat no secret.
 */
export function securityEventSinksContract(name: string, make: () => Promise<SinksHarness>): void {
  describe(`${name} (SECURITY_EVENT_SINKS contract)`, () => {
    let h: SinksHarness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it('opens one sink per spec, in the order given, each named as configured without secrets', () => {
      const all = [...h.working, ...h.failing];
      expect(h.sinks.open(all.map((s) => s.spec)).map((sink) => sink.name)).toEqual(all.map((s) => s.name));
      expect(h.sinks.open([])).toEqual([]);
    });

    it('delivers every event once, in order, exactly as given, and reports it delivered at the first attempt', async () => {
      const sinks = h.sinks.open(h.working.map((s) => s.spec));
      const [a, b] = [deepFrozen(copy(A)), deepFrozen(copy(B))];
      expect(await Promise.all(sinks.map((sink) => sink.deliver(a)))).toEqual(h.working.map((s) => delivered(s, 3)));
      expect(await Promise.all(sinks.map((sink) => sink.deliver(b)))).toEqual(h.working.map((s) => delivered(s, 2)));
      // B arriving after A also shows that A arrived only once: a repeat of A would come before B.
      for (const s of h.working) expect(await h.received(s.spec, 5)).toStrictEqual([...A, ...B]);
    });

    it('delivers through a sink opened again for the same spec after what was delivered before', async () => {
      for (const batch of [A, B, C]) {
        const sinks = h.sinks.open(h.working.map((s) => s.spec));
        expect(await Promise.all(sinks.map((sink) => sink.deliver(batch)))).toEqual(h.working.map((s) => delivered(s, batch.length)));
      }
      for (const s of h.working) expect(await h.received(s.spec, 6)).toStrictEqual([...A, ...B, ...C]);
    });

    it('delivers the events as they were at delivery, whatever the caller changes afterwards', async () => {
      const sinks = h.sinks.open(h.working.map((s) => s.spec));
      const given = copy(A);
      await Promise.all(sinks.map((sink) => sink.deliver(given)));
      given[0].summary = 'changed after delivery';
      (given[1].data as { counts: { fail: number } }).counts.fail = 99;
      given.push(eventNumber(9));
      await Promise.all(sinks.map((sink) => sink.deliver(C)));
      for (const s of h.working) expect(await h.received(s.spec, 4)).toStrictEqual([...A, ...C]);
    });

    it('reports a failing destination in the delivery report, never by throwing, while the other sinks deliver every event', async () => {
      // Working and failing sinks interleaved, all given the events at once, as a run's events are.
      const specs: (SinkSpec | FailingSinkSpec)[] = [];
      for (let i = 0; i < Math.max(h.working.length, h.failing.length); i++) {
        if (h.working[i]) specs.push(h.working[i]);
        if (h.failing[i]) specs.push(h.failing[i]);
      }
      const sinks = h.sinks.open(specs.map((s) => s.spec));
      const reports = await Promise.all(sinks.map((sink) => sink.deliver(A)));
      expect(reports).toEqual(specs.map((s) => ('error' in s ? failed(s) : delivered(s, 3))));
      for (const s of h.working) expect(await h.received(s.spec, 3)).toStrictEqual(A);
      // A failed delivery leaves nothing behind that changes the next one.
      expect(await Promise.all(h.sinks.open(h.failing.map((s) => s.spec)).map((sink) => sink.deliver(B)))).toEqual(h.failing.map(failed));
    });

    it('does no work for a delivery without events: attempts 0, no error, working or failing, and nothing arrives', async () => {
      const all = [...h.working, ...h.failing];
      const reports = await Promise.all(h.sinks.open(all.map((s) => s.spec)).map((sink) => sink.deliver([])));
      expect(reports).toStrictEqual(all.map((s) => ({ sink: s.name, delivered: 0, attempts: 0 })));
      await Promise.all(h.sinks.open(h.working.map((s) => s.spec)).map((sink) => sink.deliver(C)));
      for (const s of h.working) expect(await h.received(s.spec, 1)).toStrictEqual(C);
    });

    it.each(['bogus', '/var/log/events.ndjson', 'kafka://broker:9092', 'ndjson:', 'ndjson:   '])(
      'refuses %j with UsageError bad-sink naming it and the accepted forms',
      (spec) => {
        for (const specs of [[spec], [h.working[0].spec, spec]]) {
          const error = thrown(() => h.sinks.open(specs));
          expect(error).toBeInstanceOf(UsageError);
          expect(error).toMatchObject({ kind: 'usage', code: 'bad-sink' });
          const message = (error as Error).message;
          expect(message.slice(0, `--sink ${spec}: `.length)).toBe(`--sink ${spec}: `);
          for (const form of ['ndjson:', 'syslog+tcp://', 'syslog+udp://', 'https://']) expect(message).toContain(form);
        }
      },
    );

    it.each([
      ['https://admin:hunter2@hec.example/services/collector', ['hunter2'], 'sink-token-in-url'],
      ['https://hec.example/services/collector?token=abc123', ['abc123'], 'sink-token-in-url'],
      ['https://admin:hunter2@hec.example:99999/x?hec_token=abc123', ['hunter2', 'abc123'], 'bad-sink'],
    ])('refuses %s, with credentials in it, as a usage error that does not repeat them', (spec, secrets, code) => {
      const error = thrown(() => h.sinks.open([spec]));
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ kind: 'usage', code });
      for (const secret of secrets) expect((error as Error).message).not.toContain(secret);
      expect((error as Error).message).toMatch(/^--sink https:\/\/hec\.example/);
    });
  });
}
