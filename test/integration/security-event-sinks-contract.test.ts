import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConmonEvent } from '../../src/domain/conmon/conmon-event';
import { closed, deadPort, listening, msgOf, octetFrames } from '../support/collectors';
import { SinkFactory } from '../../src/infrastructure/sinks/sink-factory';
import { securityEventSinksContract, type SinksHarness } from '../contracts/security-event-sinks.contract';
import { RecordingEventSinks } from '../fakes/recording-event-sinks';

/** Retries as configured, with waits short enough for a test: 4 attempts, 5 ms doubling to at most 20 ms. */
const FAST = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };
/** A collector token, so the HTTP sinks are opened as in production with one (it must appear in no name or report). */
const TOKEN = 'hec-contract-token-5e1f';

/**
 * What arrives at one listener, in the order the deliveries reached it: a connection or request takes its place
 * when it starts and is filled when it ends, so a later connection that ends first does not jump the queue.
 */
class Arrivals {
  private readonly slots: (ConmonEvent[] | undefined)[] = [];
  private readonly waiting: { count: number; resolve: (events: ConmonEvent[]) => void }[] = [];

  /** Takes the next place; the returned function fills it. */
  place(): (events: ConmonEvent[]) => void {
    const at = this.slots.push(undefined) - 1;
    return (events) => {
      this.slots[at] = events;
      this.settle();
    };
  }

  until(count: number): Promise<ConmonEvent[]> {
    return new Promise((resolve) => {
      this.waiting.push({ count, resolve });
      this.settle();
    });
  }

  /** The events of the filled places before the first unfilled one. */
  private arrived(): ConmonEvent[] {
    const events: ConmonEvent[] = [];
    for (const slot of this.slots) {
      if (slot === undefined) break;
      events.push(...slot);
    }
    return events;
  }

  private settle(): void {
    const events = this.arrived();
    for (const waiter of [...this.waiting]) {
      if (events.length >= waiter.count) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.resolve(events);
      }
    }
  }
}

/** The event a syslog line carries as MSG (the JSON after the SD element). */
function eventOfSyslogLine(line: string): ConmonEvent {
  return JSON.parse(msgOf(line)) as ConmonEvent;
}

/** A syslog collector over TCP: one connection per delivery, its frames read when the sender closes. */
async function tcpCollector(): Promise<{ port: number; arrivals: Arrivals; close(): Promise<void> }> {
  const arrivals = new Arrivals();
  const server = createTcpServer((socket) => {
    const fill = arrivals.place();
    const chunks: Buffer[] = [];
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      fill(octetFrames(Buffer.concat(chunks)).map(eventOfSyslogLine));
      socket.end();
    });
  });
  const port = await listening(server);
  return { port, arrivals, close: () => closed(server) };
}

/** A syslog collector over UDP: one datagram per event. */
async function udpCollector(): Promise<{ port: number; arrivals: Arrivals; close(): Promise<void> }> {
  const arrivals = new Arrivals();
  const socket: UdpSocket = createSocket('udp4');
  socket.on('message', (message) => arrivals.place()([eventOfSyslogLine(message.toString('utf8'))]));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, arrivals, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/**
 * A Splunk HEC-style collector: each POST a batch of envelopes separated by newlines. `status` other than 200 is
 * answered with a HEC error body, as a failing collector does.
 */
async function httpCollector(status = 200): Promise<{ base: string; arrivals: Arrivals; close(): Promise<void> }> {
  const arrivals = new Arrivals();
  const server = createHttpServer((req, res) => {
    const fill = arrivals.place();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (status !== 200) {
        fill([]);
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"text":"Internal server error","code":8}');
        return;
      }
      const lines = Buffer.concat(chunks)
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '');
      fill(lines.map((line) => (JSON.parse(line) as { event: ConmonEvent }).event));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
    });
  });
  const base = `http://127.0.0.1:${await listening(server)}`;
  return {
    base,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await closed(server);
    },
  };
}

securityEventSinksContract('SinkFactory (ndjson file, syslog over TCP and UDP, HTTP collector)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-sinks-contract-'));
  const [tcp, udp, http, failingHttp, dead] = await Promise.all([tcpCollector(), udpCollector(), httpCollector(), httpCollector(500), deadPort()]);
  // A directory where the event file should be: every append fails, and no retry changes that.
  const blocked = join(root, 'blocked.ndjson');
  mkdirSync(blocked);
  const ndjsonPath = join(root, 'logs', 'conmon', 'events.ndjson');
  const specs = {
    ndjson: 'ndjson:logs/conmon/events.ndjson',
    tcp: `syslog+tcp://127.0.0.1:${tcp.port}`,
    udp: `syslog+udp://127.0.0.1:${udp.port}`,
    http: `${http.base}/services/collector/event?channel=conmon`,
  };
  const collectors: Record<string, (count: number) => Promise<ConmonEvent[]>> = {
    // Appended and fsynced before the delivery resolves: what is in the file is all that arrived.
    [specs.ndjson]: async () =>
      existsSync(ndjsonPath)
        ? readFileSync(ndjsonPath, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as ConmonEvent)
        : [],
    [specs.tcp]: (count) => tcp.arrivals.until(count),
    [specs.udp]: (count) => udp.arrivals.until(count),
    [specs.http]: (count) => http.arrivals.until(count),
  };
  const failingHec = `${failingHttp.base}/services/collector/event`;
  const harness: SinksHarness = {
    sinks: new SinkFactory({ hostname: 'test-host', retry: FAST, cwd: root, token: TOKEN }),
    working: [
      { spec: specs.ndjson, name: `ndjson:${ndjsonPath}` },
      { spec: specs.tcp, name: specs.tcp },
      { spec: specs.udp, name: specs.udp },
      { spec: specs.http, name: `${http.base}/services/collector/event` },
    ],
    failing: [
      {
        spec: failingHec,
        name: failingHec,
        attempts: FAST.attempts,
        error: `${failingHec}: answered 500 Internal Server Error (Internal server error); the collector is overloaded or failing; try again later`,
      },
      {
        spec: `syslog+tcp://127.0.0.1:${dead}`,
        name: `syslog+tcp://127.0.0.1:${dead}`,
        attempts: FAST.attempts,
        error: `syslog+tcp://127.0.0.1:${dead}: connect ECONNREFUSED 127.0.0.1:${dead}; check the host and port and that a syslog collector listens there over TCP`,
      },
      { spec: `ndjson:${blocked}`, name: `ndjson:${blocked}`, attempts: 1, error: `ndjson:${blocked}: is a directory, expected a file; pass the file itself` },
    ],
    received: (spec, count) => collectors[spec](count),
    cleanup: async () => {
      await Promise.all([tcp.close(), udp.close(), http.close(), failingHttp.close()]);
      rmSync(root, { recursive: true, force: true });
    },
  };
  return harness;
});

securityEventSinksContract('RecordingEventSinks (test double)', async () => {
  const sinks = new RecordingEventSinks();
  return {
    sinks,
    working: [
      { spec: 'ndjson:/var/log/svc/events.ndjson', name: 'ndjson:/var/log/svc/events.ndjson' },
      { spec: 'syslog+tcp://siem.example:6514', name: 'syslog+tcp://siem.example:6514' },
      { spec: 'https://hec.example:8088/services/collector/event?channel=conmon', name: 'https://hec.example:8088/services/collector/event' },
    ],
    failing: [{ spec: 'fail:siem', name: 'fail:siem', attempts: 4, error: 'connect ECONNREFUSED' }],
    received: async (spec) => sinks.received.get(spec) ?? [],
    cleanup: async () => undefined,
  };
});
