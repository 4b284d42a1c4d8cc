import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

export const TEST_PASSWORD = 'test-secret';

export interface PostgresServer {
  /** The `svc` database, as user svc with its password. */
  url: string;
  /** The `postgres` database, for CREATE and DROP DATABASE. */
  adminUrl: string;
  /** A URL of another database on this server. */
  urlOf(database: string): string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster on loopback for one test file: initdb into a temp dir, started on a free port,
 * fsync off. Root may not run the server, so as root it runs as the `postgres` OS user.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = serverBinaries();
  const root = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    chownSync(root, Number(uid.stdout), Number(gid.stdout));
  }
  // cwd: the postgres user may not be allowed into the caller's working directory.
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: root }) : run(join(bin, tool), args, { cwd: root });
  try {
    const initdb = ['-D', data, '-U', 'svc', '--auth=trust', '-E', 'UTF8'];
    await pg('initdb', [...initdb, '--locale=C.UTF-8']).catch(() => pg('initdb', [...initdb, '--no-locale']));
    const port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${root} -c fsync=off`;
    await pg('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(root, 'log'), 'start']);
    const at = (user: string, database: string) => `postgresql://${user}@127.0.0.1:${port}/${database}`;
    const admin = new Client({ connectionString: at('svc', 'postgres') });
    await admin.connect();
    try {
      await admin.query(`ALTER USER svc PASSWORD '${TEST_PASSWORD}'`);
      await admin.query('CREATE DATABASE svc');
    } finally {
      await admin.end();
    }
    const urlOf = (database: string) => at(`svc:${TEST_PASSWORD}`, database);
    return {
      url: urlOf('svc'),
      adminUrl: urlOf('postgres'),
      urlOf,
      stop: async () => {
        await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const log = existsSync(join(root, 'log')) ? readFileSync(join(root, 'log'), 'utf8').slice(-2000) : '';
    await pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    throw new Error(`could not start a test PostgreSQL server with ${bin}: ${(error as Error).message}${log && `\nserver log:\n${log}`}`, { cause: error });
  }
}

/** initdb and pg_ctl from PATH, else from the newest /usr/lib/postgresql/<major>/bin (Debian keeps them off PATH). */
function serverBinaries(): string {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && ['initdb', 'pg_ctl'].every((tool) => existsSync(join(dir, tool))));
  if (onPath.length > 0) return onPath[0];
  const debian = '/usr/lib/postgresql';
  const majors = existsSync(debian) ? readdirSync(debian).filter((v) => ['initdb', 'pg_ctl'].every((tool) => existsSync(join(debian, v, 'bin', tool)))) : [];
  const newest = majors.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))[0];
  if (newest === undefined) throw new Error('PostgreSQL server binaries not found: install the Debian package postgresql (.ci/run does this)');
  return join(debian, newest, 'bin');
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
