import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import pino from 'pino';
import { readApiConfig, type ApiConfig } from '../../src/interfaces/http/config/api-config';
import { FIXTURES, ROOT, svc } from './run-svc';

/** A svc home with the sample baseline recorded as its one run (through the built CLI, as a user records it). */
export function homeWithRecordedRun(prefix = 'svc-api-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const run = svc(['conmon', 'process', join(FIXTURES, 'sample-baseline.json')], { env: { SVC_HOME: home } });
  if (run.status !== 0) throw new Error(`conmon process failed: ${run.stderr}`);
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Config trusting the proxy header from loopback: alice audits, bob operates, carol has no role. */
export function proxyConfig(extra: Record<string, unknown> = {}): ApiConfig {
  return readApiConfig(
    {
      port: 0,
      auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1', '::1'] } },
      roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'] },
      ...extra,
    },
    'test-api.json',
    process.cwd(),
  );
}

/** A pino logger whose lines land in `lines`, parsed. */
export function capturingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** Validates bodies against the schemas of the OpenAPI document the API serves. */
export function openApiChecker(document: any): (path: string, method: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: document.components }, 'openapi.json');
  return (path, method, status, body) => {
    const response = document.paths[path]?.[method]?.responses?.[String(status)];
    if (!response) return [`no documented ${status} response for ${method.toUpperCase()} ${path}`];
    const resolved = response.$ref ? document.components.responses[response.$ref.split('/').pop()] : response;
    const content = Object.values(resolved.content ?? {})[0] as { schema: any } | undefined;
    if (!content) return [];
    const schema = JSON.parse(JSON.stringify(content.schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
    const validate = ajv.compile(schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

export interface StartedApi {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built `bin/svc-api.js` as a user does and resolves with its URL from the startup line. */
export function startSvcApi(args: string[], env: NodeJS.ProcessEnv, options: { bin?: string; cwd?: string } = {}): Promise<StartedApi> {
  const child = spawn(process.execPath, [options.bin ?? join(ROOT, 'bin', 'svc-api.js'), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /^svc-api listening on (\S+) /m.exec(stderr);
      if (m) {
        resolve({
          child,
          url: m[1],
          stderr: () => stderr,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`svc-api exited ${code}: ${stderr}`)));
  });
}
