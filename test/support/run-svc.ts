import { spawnSync } from 'node:child_process';
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

/** Runs the built CLI as a user does (`node bin/run.js ...`), from the project root unless told otherwise. */
export function svc(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): SvcRun {
  const env: NodeJS.ProcessEnv = { ...process.env, SOURCE_DATE_EPOCH: '1767225600', ...options.env };
  delete env.SVC_CONFIG;
  if (options.env?.SVC_CONFIG) env.SVC_CONFIG = options.env.SVC_CONFIG;
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, encoding: 'utf8' });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}
