import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'run.js');
export const FIXTURES = join(ROOT, 'fixtures');
export const REFERENCE = join(ROOT, '..', 'shared', 'reference');

export interface SvcRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

export interface SvcOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Runs the built CLI as a user does (`node bin/run.js ...`), from the project root unless told otherwise. */
export function svc(args: string[], options: SvcOptions = {}): SvcRun {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: svcEnv(options), encoding: 'utf8' });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

/** A CLI run started and not waited for: its stderr so far, and its end. */
export interface StartedSvc {
  stderr: () => string;
  done: Promise<SvcRun>;
}

/** Starts the built CLI as `svc` runs it, without waiting for it (several at once, as several users or cron jobs). */
export function startSvc(args: string[], options: SvcOptions = {}): StartedSvc {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: svcEnv(options), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { stderr: () => stderr, done: new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr }))) };
}

function svcEnv(options: SvcOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SOURCE_DATE_EPOCH: '1767225600', ...options.env };
  delete env.SVC_CONFIG;
  if (options.env?.SVC_CONFIG) env.SVC_CONFIG = options.env.SVC_CONFIG;
  return env;
}
