import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runInThisContext } from 'node:vm';

const run = promisify(execFile);
const SCRIPTS = resolve(__dirname, '..', '..', 'scripts', 'kdc');
const REALM = 'SVC.TEST';
const PASSWORDS = { alice: 'alice-Passw0rd', bob: 'bob-Passw0rd' } as const;

export type KdcUser = keyof typeof PASSWORDS;

/** A running MIT KDC on 127.0.0.1 with the service principal HTTP/localhost and the users alice and bob. */
export interface Kdc {
  dir: string;
  realm: string;
  port: number;
  /** The acceptor's GSS service name, `HTTP@localhost`. */
  spn: string;
  /** Absolute path of the keytab holding HTTP/localhost. */
  keytab: string;
  /** KRB5_CONFIG, KRB5_KDC_PROFILE, KRB5_KTNAME, KRB5CCNAME (alice's cache), KRB5RCACHEDIR. */
  env: Record<string, string>;
  users: Record<KdcUser, string>;
  /** The KRB5CCNAME value of a user's ticket cache (`FILE:<dir>/ccache…`). */
  ccacheFor(user: KdcUser): string;
  /**
   * Adds the user principal `name` (in the realm) with kadmin.local and gets its ticket with kinit; resolves the
   * KRB5CCNAME of its ticket cache. For names a KDC issues that svc-api must still refuse (600 characters, …).
   */
  addUser(name: string, password?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts scripts/kdc/kdc-up.sh in `dir` (default: a fresh temporary directory) on a free random port, retrying
 * with another port when one is taken. stop() runs kdc-down.sh --purge and removes the directory if it made it.
 */
export async function startKdc(dir?: string): Promise<Kdc> {
  if (!existsSync('/usr/sbin/krb5kdc') || !existsSync('/usr/sbin/kadmin.local')) {
    throw new Error('krb5kdc is not installed; install the Debian packages krb5-kdc krb5-admin-server krb5-user (.ci/run installs them)');
  }
  const owned = dir === undefined;
  const home = dir ?? mkdtempSync(join(tmpdir(), 'svc-kdc-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 6; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 40000);
    if (!(await portIsFree(port))) continue;
    try {
      await run(join(SCRIPTS, 'kdc-up.sh'), [home], {
        env: { ...process.env, KDC_PORT: String(port), REALM, TEST_USER: 'alice', TEST_PASS: PASSWORDS.alice, EXTRA_USERS: `bob:${PASSWORDS.bob}` },
        timeout: 30_000,
      });
      return kdcAt(home, port, owned);
    } catch (error) {
      lastError = error;
      await run(join(SCRIPTS, 'kdc-down.sh'), [home, '--purge']).catch(() => undefined);
    }
  }
  if (owned) rmSync(home, { recursive: true, force: true });
  throw new Error(`could not start a KDC in ${home}: ${(lastError as { stderr?: string })?.stderr ?? String(lastError)}`);
}

function kdcAt(dir: string, port: number, owned: boolean): Kdc {
  const ccacheFor = (user: KdcUser) => `FILE:${join(dir, user === 'alice' ? 'ccache' : `ccache.${user}`)}`;
  return {
    dir,
    realm: REALM,
    port,
    spn: 'HTTP@localhost',
    keytab: join(dir, 'http.keytab'),
    env: {
      KRB5_CONFIG: join(dir, 'krb5.conf'),
      KRB5_KDC_PROFILE: join(dir, 'kdc.conf'),
      KRB5_KTNAME: `FILE:${join(dir, 'http.keytab')}`,
      KRB5CCNAME: ccacheFor('alice'),
      KRB5RCACHEDIR: join(dir, 'rcache'),
    },
    users: { alice: `alice@${REALM}`, bob: `bob@${REALM}` },
    ccacheFor,
    async addUser(name, password = 'Us3r-Passw0rd') {
      const env = { ...process.env, KRB5_CONFIG: join(dir, 'krb5.conf'), KRB5_KDC_PROFILE: join(dir, 'kdc.conf') };
      await run('/usr/sbin/kadmin.local', ['-r', REALM, '-q', `addprinc -pw ${password} ${name}`], { env, timeout: 30_000 });
      const ccache = `FILE:${join(dir, `ccache.extra.${Date.now()}.${Math.random().toString(36).slice(2)}`)}`;
      await new Promise<void>((resolve, reject) => {
        const kinit = spawn('kinit', [`${name}@${REALM}`], { env: { ...env, KRB5CCNAME: ccache }, stdio: ['pipe', 'ignore', 'pipe'] });
        let stderr = '';
        kinit.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        kinit.on('error', reject);
        kinit.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`kinit ${name}@${REALM} exited ${code}: ${stderr}`))));
        kinit.stdin.end(`${password}\n`);
      });
      return ccache;
    },
    async stop() {
      await run(join(SCRIPTS, 'kdc-down.sh'), [dir, '--purge']);
      if (owned) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A second krb5kdc on a port another one holds starts without complaint (MIT krb5 1.20), so check the port first. */
async function portIsFree(port: number): Promise<boolean> {
  const tcp = await new Promise<boolean>((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
  if (!tcp) return false;
  return new Promise<boolean>((done) => {
    const socket = createSocket('udp4');
    socket.once('error', () => done(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => done(true)));
  });
}

/**
 * Sets (or, for undefined, unsets) environment variables where the native kerberos library reads them, and in the
 * test's process.env; returns a function that restores both. Jest gives test code a copy of process.env whose
 * writes never reach getenv(), so the real process object is taken from the main context.
 */
export function setNativeEnv(variables: Record<string, string | undefined>): () => void {
  const envs = [(runInThisContext('process') as NodeJS.Process).env, process.env];
  const saved = envs.map((env) => Object.fromEntries(Object.keys(variables).map((name) => [name, env[name]])));
  const apply = (values: Record<string, string | undefined>[]) =>
    envs.forEach((env, i) => {
      for (const [name, value] of Object.entries(values[i])) {
        if (value === undefined) delete env[name];
        else env[name] = value;
      }
    });
  apply([variables, variables]);
  return () => apply(saved);
}
