import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONMON_EVENT_SCHEMA, type ConmonEvent, type EventKind } from '../../src/domain/conmon/conmon-event';
import { ConfigError, UsageError } from '../../src/domain/errors';
import { HttpEventSink } from '../../src/infrastructure/sinks/http-event-sink';
import { NdjsonFileSink } from '../../src/infrastructure/sinks/ndjson-file-sink';
import { deliverWithRetry, retryPolicy, SendError } from '../../src/infrastructure/sinks/retry';
import { SinkFactory, type SinkFactoryOptions } from '../../src/infrastructure/sinks/sink-factory';
import { SyslogSink } from '../../src/infrastructure/sinks/syslog-sink';
import type { SecurityEventSink } from '../../src/ports/security-event-sink';
import { closed, deadPort, listening, msgOf, octetFrames } from '../support/collectors';

const RUN_ID = 'f3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const TOKEN = 'hec-s3cret-7f9a';
const FAST = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

/** A conmon event as the lifecycle emits it; a test overrides what it is about. */
function anEvent(kind: EventKind = 'poam.opened', extra: Partial<ConmonEvent> = {}): ConmonEvent {
  return {
    schema: CONMON_EVENT_SCHEMA,
    event_id: '9c5b94b1-35ad-59b8-a7b5-fa6ef8d4a3b1',
    kind,
    time: '2026-11-02T14:05:00.125Z',
    severity: 'warning',
    run: { id: RUN_ID, seq: 3, input: { name: 'baseline.json', sha256: 'ab'.repeat(32) } },
    ksi_id: 'KSI-IAM-01',
    poam_id: 'POAM-0007',
    summary: `${kind} for KSI-IAM-01`,
    data: { status: 'Open', due: '2026-12-02' },
    ...extra,
  };
}

function sinkFor(spec: string, options: SinkFactoryOptions = {}): SecurityEventSink {
  return new SinkFactory({ hostname: 'test-host', retry: FAST, ...options }).open([spec])[0];
}

/** What arrives at a listener during one test, taken in arrival order by the test waiting for it. */
class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiting: ((item: T) => void)[] = [];

  push(item: T): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  next(): Promise<T> {
    return this.items.length > 0 ? Promise.resolve(this.items.shift() as T) : new Promise((resolve) => this.waiting.push(resolve));
  }

  get pending(): number {
    return this.items.length;
  }
}

describe('deliverWithRetry', () => {
  const failing = (error: Error) => async () => {
    throw error;
  };

  it('doubles the wait from baseDelayMs, never past maxDelayMs, for policy.attempts attempts in all', async () => {
    const waits: number[] = [];
    const outcome = await deliverWithRetry(failing(new Error('down')), { attempts: 5, baseDelayMs: 250, maxDelayMs: 1000 }, undefined, async (ms) => {
      waits.push(ms);
    });
    expect(outcome).toEqual({ attempts: 5, error: 'down' });
    expect(waits).toEqual([250, 500, 1000, 1000]);
  });

  it('stops at once on a non-retryable error and waits what the destination asked, capped', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    expect(await deliverWithRetry(failing(new SendError('refused', { retryable: false })), FAST, undefined, sleep)).toEqual({ attempts: 1, error: 'refused' });
    expect(waits).toEqual([]);
    let calls = 0;
    const busyOnce = async () => {
      if (calls++ === 0) throw new SendError('busy', { retryAfterMs: 60_000 });
    };
    expect(await deliverWithRetry(busyOnce, FAST, undefined, sleep)).toEqual({ attempts: 2 });
    expect(waits).toEqual([FAST.maxDelayMs]);
  });

  it('takes the defaults (4 attempts, 250 ms doubling to 4 s) and refuses a policy that never tries', () => {
    expect(retryPolicy()).toEqual({ attempts: 4, baseDelayMs: 250, maxDelayMs: 4000 });
    expect(() => retryPolicy({ attempts: 0 })).toThrow(new ConfigError('bad-sink-retry', 'sink retry attempts 0: expected a whole number of at least 1'));
  });
});

describe('SyslogSink over TCP', () => {
  let server: TcpServer;
  let port: number;
  let connections = new Inbox<Buffer>();
  beforeEach(() => {
    connections = new Inbox();
  });

  beforeAll(async () => {
    server = createTcpServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => {
        connections.push(Buffer.concat(chunks));
        socket.end();
      });
    });
    port = await listening(server);
  });
  afterAll(() => closed(server));

  it('writes the exact RFC 5424 line: PRI, header fields, escaped SD element without null params, the event as MSG', async () => {
    const event = anEvent('drift.detected', { ksi_id: 'KSI-"CNA"\\01]', poam_id: null });
    const report = await sinkFor(`syslog+tcp://127.0.0.1:${port}`).deliver([event]);
    expect(report).toEqual({ sink: `syslog+tcp://127.0.0.1:${port}`, delivered: 1, attempts: 1 });
    const [line] = octetFrames(await connections.next());
    // local0 (16) * 8 + warning (4) = 132
    expect(line).toBe(
      `<132>1 2026-11-02T14:05:00.125Z test-host svc ${process.pid} drift.detected ` +
        `[svc@32473 event_id="9c5b94b1-35ad-59b8-a7b5-fa6ef8d4a3b1" kind="drift.detected" ksi_id="KSI-\\"CNA\\"\\\\01\\]" run="${RUN_ID}"] ` +
        JSON.stringify(event),
    );
    expect(JSON.parse(msgOf(line))).toEqual(event);
  });

  it('sends MSG without a BOM: the byte after the SD element is the JSON object\'s "{"', async () => {
    await sinkFor(`syslog+tcp://127.0.0.1:${port}`).deliver([anEvent()]);
    const bytes = await connections.next();
    const msgStart = bytes.indexOf(`run="${RUN_ID}"] `) + `run="${RUN_ID}"] `.length;
    expect(bytes.subarray(msgStart, msgStart + 3)).not.toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes[msgStart]).toBe(0x7b);
  });

  it('frames every event of a delivery on one connection with octet counts equal to UTF-8 byte lengths', async () => {
    const events = [
      anEvent('poam.opened', { summary: 'POA&M ouvert: authentification é' }),
      anEvent('poam.risk-changed', { severity: 'critical', summary: 'risk moderate → high ✓' }),
      anEvent('run.recorded', { severity: 'info', ksi_id: null, poam_id: null, summary: 'plain' }),
    ];
    const report = await sinkFor(`syslog+tcp://127.0.0.1:${port}`, { facility: 4 }).deliver(events);
    expect(report).toMatchObject({ delivered: 3, attempts: 1 });
    const bytes = await connections.next();
    const lines = octetFrames(bytes);
    expect(lines.map((line) => JSON.parse(msgOf(line)))).toEqual(events);
    expect(bytes.toString('utf8')).toBe(lines.map((line) => `${Buffer.byteLength(line, 'utf8')} ${line}`).join(''));
    expect(Buffer.byteLength(lines[1])).toBeGreaterThan(lines[1].length);
    // facility 4: 4 * 8 + warning 4, critical 2, info 6
    expect(lines.map((line) => line.slice(0, line.indexOf('>') + 1))).toEqual(['<36>', '<34>', '<38>']);
    expect(lines[2]).toContain(`[svc@32473 event_id="9c5b94b1-35ad-59b8-a7b5-fa6ef8d4a3b1" kind="run.recorded" run="${RUN_ID}"]`);
  });

  it('reports a port nothing listens on after policy.attempts tries, naming the sink and ECONNREFUSED', async () => {
    const dead = await deadPort();
    const report = await sinkFor(`syslog+tcp://127.0.0.1:${dead}`, { retry: { ...FAST, attempts: 3 } }).deliver([anEvent()]);
    expect(report).toEqual({
      sink: `syslog+tcp://127.0.0.1:${dead}`,
      delivered: 0,
      attempts: 3,
      error: `syslog+tcp://127.0.0.1:${dead}: connect ECONNREFUSED 127.0.0.1:${dead}; check the host and port and that a syslog collector listens there over TCP`,
    });
  });

  it('does not connect for a delivery without events', async () => {
    expect(await sinkFor(`syslog+tcp://127.0.0.1:${port}`).deliver([])).toEqual({ sink: `syslog+tcp://127.0.0.1:${port}`, delivered: 0, attempts: 0 });
    expect(connections.pending).toBe(0);
  });
});

describe('SyslogSink over UDP', () => {
  let socket: UdpSocket;
  let port: number;
  let datagrams = new Inbox<Buffer>();
  beforeEach(() => {
    datagrams = new Inbox();
  });

  beforeAll(async () => {
    socket = createSocket('udp4');
    socket.on('message', (message) => datagrams.push(message));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    port = socket.address().port;
  });
  afterAll(() => new Promise<void>((resolve) => socket.close(() => resolve())));

  const sink = () => sinkFor(`syslog+udp://127.0.0.1:${port}`);

  it('sends one datagram per event, each a whole syslog line without an octet count', async () => {
    const events = [anEvent('poam.opened'), anEvent('poam.closed', { severity: 'notice', summary: 'closed → é' })];
    expect(await sink().deliver(events)).toEqual({ sink: `syslog+udp://127.0.0.1:${port}`, delivered: 2, attempts: 1 });
    const lines = [(await datagrams.next()).toString('utf8'), (await datagrams.next()).toString('utf8')];
    expect(lines.map((line) => line.slice(0, line.indexOf(' ')))).toEqual(['<132>1', '<133>1']);
    expect(lines.map((line) => JSON.parse(msgOf(line)))).toEqual(events);
  });

  it('puts only printable US-ASCII in HOSTNAME, and NILVALUE when nothing is left', async () => {
    await sinkFor(`syslog+udp://127.0.0.1:${port}`, { hostname: 'ops host.exämple' }).deliver([anEvent()]);
    await sinkFor(`syslog+udp://127.0.0.1:${port}`, { hostname: ' ' }).deliver([anEvent()]);
    const hosts = [(await datagrams.next()).toString('utf8'), (await datagrams.next()).toString('utf8')].map((line) => line.split(' ')[2]);
    expect(hosts).toEqual(['opshost.exmple', '-']);
  });

  it('sends an event of exactly 8192 bytes whole, and one byte more without data and marked truncated', async () => {
    const bare = anEvent('drift.detected', { data: { pad: '' } });
    await sink().deliver([bare]);
    const bareBytes = (await datagrams.next()).length;
    const fitting = anEvent('drift.detected', { data: { pad: 'x'.repeat(8192 - bareBytes) } });
    const over = anEvent('drift.detected', { data: { pad: 'x'.repeat(8193 - bareBytes) } });
    await sink().deliver([fitting, over]);
    const whole = await datagrams.next();
    const cut = await datagrams.next();
    expect(whole.length).toBe(8192);
    expect(JSON.parse(msgOf(whole.toString('utf8')))).toEqual(fitting);
    expect(cut.length).toBeLessThan(8192);
    const { data: _data, ...rest } = over;
    expect(JSON.parse(msgOf(cut.toString('utf8')))).toEqual({ ...rest, truncated: true });
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

describe('HttpEventSink against a HEC-style collector', () => {
  let server: HttpServer;
  let base: string;
  let requests = new Inbox<Recorded>();
  let answers: Answer[] = [];

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = answers.shift() ?? { status: 200, body: '{"text":"Success","code":0}' };
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
      });
    });
    base = `http://127.0.0.1:${await listening(server)}`;
  });
  beforeEach(() => {
    requests = new Inbox();
    answers = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await closed(server);
  });

  const hec = (options: SinkFactoryOptions = { token: TOKEN }) => sinkFor(`${base}/services/collector/event?channel=conmon`, options);

  it('posts one HEC batch: envelopes joined by newlines, JSON content type, Splunk authorization', async () => {
    const events = [anEvent('poam.opened'), anEvent('poam.overdue', { severity: 'error', time: '2026-11-03T00:00:00Z', summary: 'überfällig → POAM-0007' })];
    expect(await hec().deliver(events)).toEqual({ sink: `${base}/services/collector/event`, delivered: 2, attempts: 1 });
    const request = await requests.next();
    expect(request).toMatchObject({ method: 'POST', url: '/services/collector/event?channel=conmon' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Splunk ${TOKEN}`);
    const lines = request.body.split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: 1793628300.125, host: 'test-host', source: 'svc', sourcetype: 'svc:conmon', event: events[0] },
      { time: 1793664000, host: 'test-host', source: 'svc', sourcetype: 'svc:conmon', event: events[1] },
    ]);
    expect(lines[0].startsWith('{"time":1793628300.125,"host":"test-host","source":"svc","sourcetype":"svc:conmon","event":{')).toBe(true);
  });

  it('sends no Authorization header without a token, takes an empty SVC_SINK_TOKEN as unset and a trailing newline as not part of it', async () => {
    await hec({}).deliver([anEvent()]);
    await hec({ token: '' }).deliver([anEvent()]);
    await hec({ token: `${TOKEN}\n` }).deliver([anEvent()]);
    const headers = [(await requests.next()).headers, (await requests.next()).headers, (await requests.next()).headers];
    expect(headers.map((h) => h.authorization)).toEqual([undefined, undefined, `Splunk ${TOKEN}`]);
  });

  it('retries 503 and delivers on the third attempt', async () => {
    answers = [{ status: 503 }, { status: 503 }, { status: 200 }];
    expect(await hec().deliver([anEvent()])).toMatchObject({ delivered: 1, attempts: 3 });
    const bodies = [(await requests.next()).body, (await requests.next()).body, (await requests.next()).body];
    expect(new Set(bodies).size).toBe(1);
  });

  it("retries 429 after the collector's Retry-After instead of the back-off", async () => {
    answers = [{ status: 429, headers: { 'retry-after': '0' } }];
    // A back-off of 60 s would outlast the test's timeout.
    const report = await hec({ token: TOKEN, retry: { attempts: 2, baseDelayMs: 60_000, maxDelayMs: 60_000 } }).deliver([anEvent()]);
    expect(report).toMatchObject({ delivered: 1, attempts: 2 });
  }, 10_000);

  it('waits no longer than maxDelayMs whatever Retry-After asks', async () => {
    answers = [{ status: 503, headers: { 'retry-after': '3600' } }];
    expect(await hec().deliver([anEvent()])).toMatchObject({ delivered: 1, attempts: 2 });
  }, 10_000);

  it('does not retry 401, and names the status but never the token, even when the collector echoes it', async () => {
    answers = [{ status: 401, body: JSON.stringify({ text: `Invalid token ${TOKEN}`, code: 4 }) }];
    const report = await hec().deliver([anEvent()]);
    expect(report).toEqual({
      sink: `${base}/services/collector/event`,
      delivered: 0,
      attempts: 1,
      error: `${base}/services/collector/event: answered 401 Unauthorized (Invalid token <SVC_SINK_TOKEN>); check the token in SVC_SINK_TOKEN`,
    });
    expect(JSON.stringify(report)).not.toContain(TOKEN);
  });

  it('tells how to fix a missing token and a wrong path, each on the first attempt', async () => {
    answers = [{ status: 401 }, { status: 404 }];
    expect((await hec({}).deliver([anEvent()])).error).toBe(
      `${base}/services/collector/event: answered 401 Unauthorized; set SVC_SINK_TOKEN to the collector's token`,
    );
    expect(await hec().deliver([anEvent()])).toMatchObject({
      attempts: 1,
      error: `${base}/services/collector/event: answered 404 Not Found; check the URL path (Splunk HEC: /services/collector/event)`,
    });
  });

  it('does not follow a redirect, so the token goes nowhere but the configured host', async () => {
    answers = [{ status: 307, headers: { location: 'http://elsewhere.example/collector' } }];
    expect(await hec().deliver([anEvent()])).toMatchObject({
      attempts: 1,
      error: `${base}/services/collector/event: answered 307 Temporary Redirect; point the sink at the URL the collector redirects to`,
    });
    await requests.next();
    expect(requests.pending).toBe(0);
  });

  it('retries a collector that is not there, then reports ECONNREFUSED', async () => {
    const dead = await deadPort();
    const report = await sinkFor(`http://127.0.0.1:${dead}/services/collector`, { token: TOKEN }).deliver([anEvent()]);
    expect(report).toMatchObject({ delivered: 0, attempts: FAST.attempts });
    expect(report.error).toBe(
      `http://127.0.0.1:${dead}/services/collector: connect ECONNREFUSED 127.0.0.1:${dead}; check the URL and that the collector is running and reachable`,
    );
  });
});

describe('NdjsonFileSink', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-sinks-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates the parents, writes one JSON line per event, and appends the next delivery', async () => {
    const sink = sinkFor('ndjson:logs/conmon/events.ndjson', { cwd: root });
    const path = join(root, 'logs', 'conmon', 'events.ndjson');
    const first = [anEvent('poam.opened'), anEvent('drift.detected', { summary: 'drift → é', poam_id: null })];
    const second = [anEvent('poam.closed', { severity: 'notice' })];
    expect(await sink.deliver(first)).toEqual({ sink: `ndjson:${path}`, delivered: 2, attempts: 1 });
    expect(await sink.deliver(second)).toEqual({ sink: `ndjson:${path}`, delivered: 1, attempts: 1 });
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([...first, ...second]);
  });

  it('reports a directory in the way once, naming the sink and the fix', async () => {
    mkdirSync(join(root, 'events.ndjson'));
    const report = await sinkFor('ndjson:events.ndjson', { cwd: root }).deliver([anEvent()]);
    const path = join(root, 'events.ndjson');
    expect(report).toEqual({
      sink: `ndjson:${path}`,
      delivered: 0,
      attempts: 1,
      error: `ndjson:${path}: is a directory, expected a file; pass the file itself`,
    });
  });
});

describe('SinkFactory', () => {
  const FORMS = 'use ndjson:<file>, syslog+tcp://host:port, syslog+udp://host:port or https://host/path';
  const factory = new SinkFactory({ cwd: '/srv/svc', token: TOKEN });

  it('opens every spec form, named without secrets, the syslog port defaulting to 514', () => {
    const sinks = factory.open([
      'ndjson:out/events.ndjson',
      'ndjson:/var/log/svc.ndjson',
      'syslog+tcp://127.0.0.1:5514',
      'syslog+udp://collector.example',
      'syslog+tcp://[::1]:6514',
      'https://hec.example:8088/services/collector/event?channel=0f6c',
      'http://127.0.0.1:8088/services/collector',
    ]);
    expect(sinks.map((sink) => [sink.constructor, sink.name])).toEqual([
      [NdjsonFileSink, 'ndjson:/srv/svc/out/events.ndjson'],
      [NdjsonFileSink, 'ndjson:/var/log/svc.ndjson'],
      [SyslogSink, 'syslog+tcp://127.0.0.1:5514'],
      [SyslogSink, 'syslog+udp://collector.example:514'],
      [SyslogSink, 'syslog+tcp://[::1]:6514'],
      [HttpEventSink, 'https://hec.example:8088/services/collector/event'],
      [HttpEventSink, 'http://127.0.0.1:8088/services/collector'],
    ]);
    expect(JSON.stringify(sinks.map((sink) => sink.name))).not.toContain(TOKEN);
  });

  it.each([
    ['kafka://broker:9092', `--sink kafka://broker:9092: not a sink; ${FORMS}`],
    ['/var/log/events.ndjson', `--sink /var/log/events.ndjson: not a sink; ${FORMS}`],
    ['ndjson:', `--sink ndjson:: no file path; ${FORMS}`],
    ['syslog+tcp://collector:99999', `--sink syslog+tcp://collector:99999: expected syslog+tcp://host:port with a port from 1 to 65535; ${FORMS}`],
    ['syslog+udp://collector:514/path', `--sink syslog+udp://collector:514/path: expected syslog+udp://host:port with a port from 1 to 65535; ${FORMS}`],
    ['syslog+tcp://collector:0', `--sink syslog+tcp://collector:0: expected syslog+tcp://host:port with a port from 1 to 65535; ${FORMS}`],
    ['syslog+tcp:collector:514', `--sink syslog+tcp:collector:514: expected syslog+tcp://host:port with a port from 1 to 65535; ${FORMS}`],
    ['https://', `--sink https://: not a valid URL; ${FORMS}`],
    ['https://admin:hunter2@hec.example:99999/x?hec_token=abc', `--sink https://hec.example:99999/x?hec_token=…: not a valid URL; ${FORMS}`],
  ])('refuses %s as a usage error', (spec, message) => {
    expect(() => factory.open(['ndjson:ok.ndjson', spec])).toThrow(new UsageError('bad-sink', message));
    expect(() => factory.open([spec])).toThrow(expect.objectContaining({ kind: 'usage', code: 'bad-sink' }));
  });

  it.each([
    ['https://admin:hunter2@hec.example/services/collector', 'hunter2'],
    ['https://hec.example/services/collector?token=abc123', 'abc123'],
  ])('refuses a token in the URL %s without repeating it', (spec, secret) => {
    const message =
      '--sink https://hec.example/services/collector: credentials in the URL; put the token in SVC_SINK_TOKEN instead (a command line shows up in ps)';
    expect(() => factory.open([spec])).toThrow(new UsageError('sink-token-in-url', message));
    expect(message).not.toContain(secret);
  });

  it('refuses options that cannot work as configuration errors, before any sink is opened', () => {
    expect(() => new SinkFactory({ facility: 24 })).toThrow(
      new ConfigError('bad-syslog-facility', 'syslog facility 24: expected a whole number from 0 to 23 (16 is local0)'),
    );
    expect(() => new SinkFactory({ retry: { baseDelayMs: -1 } })).toThrow(
      new ConfigError('bad-sink-retry', 'sink retry baseDelayMs -1: expected milliseconds, 0 or more'),
    );
    expect(() => new SinkFactory({ token: 'two words' })).toThrow(
      new ConfigError('bad-sink-token', 'SVC_SINK_TOKEN: contains spaces or control characters; set it to the token alone'),
    );
  });
});
