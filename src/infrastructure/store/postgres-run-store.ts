import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import type { RunSummary, StoredRun, TrackedPoamItem } from '../../domain/conmon/run-record';
import { AppError, PermissionError, UnavailableError } from '../../domain/errors';
import type { AppendDecision, AppendOutcome, RunRange, RunStore } from '../../ports/run-store';
import { migrate, type Sql } from './postgres-migrations';
import { canonicalJson, checkDecided, parseRunKey, verifiedRecord } from './run-id';
import { instantsOf } from './run-range';

export interface PostgresRunStoreOptions {
  /** postgres://user:password@host:port/database (any form pg accepts). */
  url: string;
  poolSize?: number;
}

/** Serializes appends across processes; any constant works that no other application in the database locks on. */
const APPEND_LOCK = '7305119270480002';
const CONNECT_TIMEOUT_MS = 10_000;

const RUN_COLUMNS = 'seq, id, summary, record_text, poam, events';

interface RunRow {
  /** bigint arrives as a string. */
  seq: string;
  id: string;
  summary: RunSummary;
  record_text: string;
  poam: TrackedPoamItem[];
  events: ConmonEvent[];
}

/** Network errors, and SQLSTATEs of connection, authentication, missing database and server shutdown or overload. */
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const UNREACHABLE_SQLSTATE = /^(08|28|3D000|57P0[123]|53300)/;
/** pg's own connection failures carry no code. */
const UNREACHABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|connection error/i;

/**
 * The shared run store on PostgreSQL, for several hosts recording to one history. An append is one transaction
 * under an advisory lock, so concurrent appends from any number of processes take seq 1, 2, … in turn and a
 * failure leaves nothing behind. Each run keeps its canonical record bytes, re-hashed on every read.
 */
export class PostgresRunStore implements RunStore {
  readonly location: string;
  private readonly pool: Pool;
  private readonly secrets: string[];
  private schema: Promise<void> | undefined;
  private closed = false;

  constructor(options: PostgresRunStoreOptions) {
    this.location = redactUrl(options.url);
    this.secrets = secretsOf(options.url);
    // allowExitOnIdle: a CLI command ends when its work is done, without waiting for idle connections to time out.
    this.pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, allowExitOnIdle: true });
    // An idle connection the server dropped: the pool discards it, and the next query reports any real outage.
    this.pool.on('error', () => undefined);
  }

  async append(id: string, decide: AppendDecision): Promise<AppendOutcome> {
    await this.ready();
    return this.transaction(async (sql) => {
      await sql(`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
      const [known] = await sql<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs WHERE id = $1`, [id]);
      if (known) return { recorded: false, run: this.toStored(known) };
      const [last] = await sql<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs ORDER BY seq DESC LIMIT 1`);
      const seq = last ? Number(last.seq) + 1 : 1;
      const run = decide(last && this.toStored(last), seq);
      checkDecided(run, id, seq);
      const { summary } = run;
      const text = canonicalJson(run.record);
      await sql(
        `INSERT INTO svc_runs (seq, id, recorded_at, as_of, summary, record, record_text, poam, events)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::text::jsonb, $6::text, $7::jsonb, $8::jsonb)`,
        // JSON text throughout: pg would send a JavaScript array as a PostgreSQL array literal.
        [seq, id, instant(summary.recorded_at), instant(summary.as_of), JSON.stringify(summary), text, JSON.stringify(run.poam), JSON.stringify(run.events)],
      );
      return { recorded: true, run };
    });
  }

  async list(range?: RunRange): Promise<RunSummary[]> {
    const { from, to } = instantsOf(range);
    await this.ready();
    const rows = await this.query<{ summary: RunSummary }>(
      `SELECT summary FROM svc_runs
       WHERE ($1::timestamptz IS NULL OR as_of >= $1::timestamptz) AND ($2::timestamptz IS NULL OR as_of <= $2::timestamptz)
       ORDER BY seq`,
      [from === undefined ? null : new Date(from).toISOString(), to === undefined ? null : new Date(to).toISOString()],
    );
    return rows.map((row) => row.summary);
  }

  async get(key: string | number): Promise<StoredRun | undefined> {
    const wanted = parseRunKey(key);
    if (!wanted) return undefined;
    await this.ready();
    const [row] =
      'id' in wanted
        ? await this.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs WHERE id = $1`, [wanted.id])
        : await this.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs WHERE seq = $1`, [wanted.seq]);
    return row && this.toStored(row);
  }

  async latest(): Promise<StoredRun | undefined> {
    await this.ready();
    const [row] = await this.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM svc_runs ORDER BY seq DESC LIMIT 1`);
    return row && this.toStored(row);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** Migrates once per store; a failed attempt (server down) is retried by the next call. */
  private ready(): Promise<void> {
    this.schema ??= this.transaction((sql) => migrate(sql, this.location)).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  private toStored(row: RunRow): StoredRun {
    return { summary: row.summary, record: verifiedRecord(row.record_text, row.id, `${this.location} (svc_runs)`), poam: row.poam, events: row.events };
  }

  private async query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Runs `work` in one transaction on one connection; whatever it throws rolls everything back. */
  private async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.translate(error);
    }
    const sql: Sql = async <R extends QueryResultRow>(text: string, values?: unknown[]) => {
      try {
        return (await client.query<R>(text, values)).rows;
      } catch (error) {
        throw this.translate(error);
      }
    };
    let broken: Error | undefined;
    try {
      await sql('BEGIN');
      const result = await work(sql);
      await sql('COMMIT');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is not given back to the pool.
      await client.query('ROLLBACK').catch((failed: Error) => (broken = failed));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** pg's errors as AppErrors: the password never appears in the message, and unknown SQL errors (bugs) pass unchanged. */
  private translate(error: unknown): unknown {
    // Duck-typed: socket errors come from Node's core, which may be another realm than ours (a test runner's vm).
    if (error instanceof AppError || typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string') return error;
    const code = (error as { code?: unknown }).code;
    const { message } = error as Error;
    const unreachable = typeof code === 'string' ? UNREACHABLE_ERRNOS.has(code) || UNREACHABLE_SQLSTATE.test(code) : UNREACHABLE_MESSAGE.test(message);
    if (unreachable) {
      return new UnavailableError(
        'run-store-unreachable',
        `${this.location}: cannot reach the PostgreSQL run store (${this.reason(message, code)}); check SVC_STORE and that the server is running`,
        { cause: error },
      );
    }
    if (code === '42501') {
      return new PermissionError(
        'run-store-permission-denied',
        `${this.location}: the PostgreSQL user lacks rights (${this.reason(message, code)}); grant it ownership of the svc_ tables or use the account that created them`,
        { cause: error },
      );
    }
    return error;
  }

  private reason(message: string, code: unknown): string {
    const known: Record<string, string> = {
      ECONNREFUSED: 'connection refused',
      ENOTFOUND: 'host not found',
      EAI_AGAIN: 'host name lookup failed',
      ETIMEDOUT: 'timed out',
      '28P01': 'password authentication failed',
    };
    const text = (typeof code === 'string' && known[code]) || message.split('\n')[0] || String(code);
    return this.secrets.reduce((shown, secret) => shown.split(secret).join('***'), text);
  }
}

/** The URL as messages may show it: every password replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/password/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    // Not a URL (a libpq key=value string): hide password=… and anything between user: and @.
    return url.replace(/(password\s*=\s*)('[^']*'|\S+)/gi, '$1***').replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const found = [parsed.password, safeDecode(parsed.password)];
    for (const [key, value] of parsed.searchParams) if (/password/i.test(key)) found.push(value);
    return [...new Set(found.filter((secret) => secret.length > 0))];
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An ISO-8601 time as PostgreSQL should store it: read by JavaScript's rules, so both stores agree on the instant. */
function instant(iso: string): string {
  return new Date(Date.parse(iso)).toISOString();
}
