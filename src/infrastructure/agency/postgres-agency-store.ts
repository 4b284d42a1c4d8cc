import { Pool, type QueryResultRow } from 'pg';
import type { AgencyPull, AgencyReview } from '../../domain/agency/pulled-documents';
import type { AgencyStore } from '../../ports/agency-store';
import type { Sql } from '../store/postgres-migrations';
import { postgresError, postgresLocation } from '../shared/postgres-errors';
import { inTransaction } from '../shared/postgres-transaction';
import { migrateAgencyStore } from './agency-store-migrations';
import { checkLast, checkProviderName, checkSha256, documentCorrupt, documentMissing, recordCorrupt, sha256Of } from './agency-store-checks';

export interface PostgresAgencyStoreOptions {
  /** postgres://user:password@host:port/database (any form pg accepts). */
  url: string;
  poolSize?: number;
}

/**
 * The class of the providers' append locks: pg_advisory_xact_lock(class, hashtext(provider)). Two providers whose
 * names hash alike only take turns; the run store's locks (one bigint each) fall in other classes.
 */
/** How the agency store's errors name it. */
const AGENCY_STORE_NAMES = { store: 'agency store', code: 'agency-store', tables: 'agency_' };

const APPEND_LOCK_CLASS = 730511927;
const CONNECT_TIMEOUT_MS = 10_000;

type RecordTable = 'agency_pulls' | 'agency_reviews';

/**
 * The agency store on PostgreSQL (DESIGN §14), for an agency with hundreds of providers or several hosts pulling into
 * one store: agency_documents (bytes under their SHA-256), agency_pulls and agency_reviews (a record each, as jsonb,
 * under the provider and its seq), created by its own migrations (agency-store-migrations.ts) on first use. A seq is
 * taken in one transaction under the provider's advisory lock, so concurrent writers from any number of processes take
 * 1, 2, … in turn. A document is re-hashed whenever it is read.
 */
export class PostgresAgencyStore implements AgencyStore {
  /** The URL with its password masked, as messages name the store. */
  readonly location: string;
  private readonly pool: Pool;
  readonly secrets: string[];
  private schema: Promise<void> | undefined;
  private closed = false;

  constructor(options: PostgresAgencyStoreOptions) {
    ({ location: this.location, secrets: this.secrets } = postgresLocation(options.url));
    // allowExitOnIdle: a CLI command ends when its work is done, without waiting for idle connections to time out.
    this.pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, allowExitOnIdle: true });
    // An idle connection the server dropped: the pool discards it, and the next query reports any real outage.
    this.pool.on('error', () => undefined);
  }

  /**
   * Sends the bytes only when the row is missing or no longer hashes to its key (then they replace it: pulling again
   * repairs a damaged document); an intact row is left as it is.
   */
  async putDocument(bytes: Uint8Array): Promise<string> {
    const sha256 = sha256Of(bytes);
    await this.ready();
    const [row] = await this.query<{ intact: boolean }>("SELECT encode(sha256(bytes), 'hex') = sha256 AS intact FROM agency_documents WHERE sha256 = $1", [
      sha256,
    ]);
    if (row?.intact) return sha256;
    await this.query('INSERT INTO agency_documents (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO UPDATE SET bytes = EXCLUDED.bytes', [
      sha256,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ]);
    return sha256;
  }

  /**
   * The bytes come as Base64 text, a third larger than they are, rather than as bytea's hex, twice as large: a document
   * of the largest size a pull accepts (256 MiB) would not fit in one JavaScript string as hex. (pg's binary results
   * decode each value as UTF-8 first, which changes bytes that are not.) They are re-hashed before they are returned.
   */
  async readDocument(sha256: string): Promise<Uint8Array> {
    checkSha256(sha256);
    await this.ready();
    const [row] = await this.query<{ base64: string }>("SELECT encode(bytes, 'base64') AS base64 FROM agency_documents WHERE sha256 = $1", [sha256]);
    if (row === undefined) throw documentMissing(this.location, sha256);
    // Buffer.from skips the line breaks encode() puts every 76 characters.
    const bytes = Buffer.from(row.base64, 'base64');
    if (sha256Of(bytes) !== sha256) throw documentCorrupt(`${this.location} (agency_documents, sha256 ${sha256})`, sha256);
    return bytes;
  }

  async appendPull(pull: Omit<AgencyPull, 'seq'>): Promise<AgencyPull> {
    return this.append('agency_pulls', checkProviderName(pull.provider), (seq) => ({ ...pull, seq }) as AgencyPull);
  }

  async pulls(provider: string, options: { last?: number } = {}): Promise<AgencyPull[]> {
    const last = checkLast(options.last);
    return this.records<AgencyPull>('agency_pulls', checkProviderName(provider), last, (record, seq) =>
      record.seq === seq ? undefined : `it holds seq ${JSON.stringify(record.seq)}`,
    );
  }

  async providers(): Promise<string[]> {
    await this.ready();
    const rows = await this.query<{ provider: string }>('SELECT provider FROM agency_pulls UNION SELECT provider FROM agency_reviews');
    return rows.map((row) => row.provider).sort();
  }

  async appendReview(review: AgencyReview): Promise<void> {
    await this.append('agency_reviews', checkProviderName(review.provider), () => review);
  }

  async reviews(provider: string): Promise<AgencyReview[]> {
    return this.records<AgencyReview>('agency_reviews', checkProviderName(provider), undefined, () => undefined);
  }

  /** Ends the pool's connections; the store is not used after. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** Inserts `make(seq)` as the provider's next seq of `table`, in one transaction under the provider's lock. */
  private async append<T>(table: RecordTable, provider: string, make: (seq: number) => T): Promise<T> {
    await this.ready();
    return this.transaction(async (sql) => {
      await sql(`SELECT pg_advisory_xact_lock(${APPEND_LOCK_CLASS}, hashtext($1))`, [provider]);
      const [{ next }] = await sql<{ next: string }>(`SELECT coalesce(max(seq), 0) + 1 AS next FROM ${table} WHERE provider = $1`, [provider]);
      const record = make(Number(next));
      await sql(`INSERT INTO ${table} (provider, seq, record) VALUES ($1, $2, $3)`, [provider, next, JSON.stringify(record)]);
      return record;
    });
  }

  /** The provider's records of `table`, oldest first (`last`: only the newest n rows are read). */
  private async records<T extends { provider: string }>(
    table: RecordTable,
    provider: string,
    last: number | undefined,
    wrong: (record: T, seq: number) => string | undefined,
  ): Promise<T[]> {
    await this.ready();
    const rows = await this.query<{ seq: string; record: T }>(
      `SELECT seq, record FROM (SELECT seq, record FROM ${table} WHERE provider = $1 ORDER BY seq DESC LIMIT $2) newest ORDER BY seq`,
      [provider, last ?? null],
    );
    const what = table === 'agency_pulls' ? 'pull' : 'review';
    return rows.map(({ seq, record }) => {
      const where = `${this.location} (${table}, provider ${provider}, seq ${seq})`;
      if (record === null || typeof record !== 'object' || Array.isArray(record)) throw recordCorrupt(where, what, 'not a JSON object');
      if (record.provider !== provider) throw recordCorrupt(where, what, `it names provider ${JSON.stringify(record.provider)}`);
      const problem = wrong(record, Number(seq));
      if (problem !== undefined) throw recordCorrupt(where, what, problem);
      return record;
    });
  }

  /** Migrates once per store; a failed attempt (server down) is retried by the next call. */
  private ready(): Promise<void> {
    this.schema ??= this.transaction((sql) => migrateAgencyStore(sql, this.location)).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  /** One statement on any pooled connection. */
  private async query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Runs `work` in one transaction on one connection; whatever it throws rolls everything back. */
  private transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (error) => this.translate(error), work);
  }

  private translate(error: unknown): unknown {
    return postgresError(error, this, AGENCY_STORE_NAMES);
  }
}
