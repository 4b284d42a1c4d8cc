import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { Sql } from '../store/postgres-migrations';

/**
 * Runs `work` in one transaction on one pooled connection (opened with `begin`: `BEGIN`, or a stricter isolation);
 * whatever it throws rolls everything back. Every pg error, the connection's included, goes through `translate`
 * (postgresError: the store's own words, the password never shown). A connection that cannot even roll back is not
 * given back to the pool.
 */
export async function inTransaction<T>(pool: Pool, translate: (error: unknown) => unknown, work: (sql: Sql) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw translate(error);
  }
  const sql: Sql = async <R extends QueryResultRow>(text: string, values?: unknown[]) => {
    try {
      return (await client.query<R>(text, values)).rows;
    } catch (error) {
      throw translate(error);
    }
  };
  let broken: Error | undefined;
  try {
    await sql(begin);
    const result = await work(sql);
    await sql('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((failed: Error) => (broken = failed));
    throw error;
  } finally {
    client.release(broken);
  }
}
