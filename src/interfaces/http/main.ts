import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { exitCodeFor, EXIT } from '../shared/error-mapping';
import { API_INSTALL_COMMAND, missingApiPackages } from './config/api-extra';

const USAGE = `Usage: svc-api [--host <ip>] [--port <port>] [--config <file>]

Serves the svc HTTP API (docs/api.md): the current run's auditor artifacts, the FedRAMP trust center and the
directory routes.
  --host <ip>       address to bind (default 127.0.0.1, or host in the config)
  --port <port>     TCP port, 0 for any free one (default 8000, or port in the config)
  --config <file>   API config file (default SVC_API_CONFIG, else ./svc-api.json when present)
  --help            show this help
  --version         show the version
OpenAPI: GET /openapi.json; interactive docs: /docs. See docs/api.md.`;

export interface MainIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves a package (require.resolve); tests pass one that misses the API extra. */
  resolve: (name: string) => unknown;
}

/**
 * `svc-api`: checks the api extra before anything loads it, reads the config, listens, and stops cleanly on
 * SIGINT/SIGTERM. Returns the exit code (DESIGN §8) when it cannot start; resolves `undefined` once listening.
 */
export async function main(argv: string[], io: MainIo): Promise<number | undefined> {
  let args: { host?: string; port?: string; config?: string; help?: boolean; version?: boolean };
  try {
    args = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, port: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean' }, version: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    io.stderr(`Error: ${(error as Error).message.split('\n')[0]}; see svc-api --help`);
    return EXIT.usage;
  }
  if (args.help) {
    io.stdout(USAGE);
    return EXIT.ok;
  }
  if (args.version) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json is outside the compiled tree, read where it lies
    io.stdout(require('../../../package.json').version as string);
    return EXIT.ok;
  }
  const missing = missingApiPackages(io.resolve);
  if (missing.length > 0) {
    io.stderr(`Error: svc-api needs the api extra, which is not installed (missing: ${missing.join(', ')}); add it with: ${API_INSTALL_COMMAND}`);
    return EXIT.environment;
  }
  if (args.port !== undefined && !(/^\d{1,5}$/.test(args.port) && Number(args.port) <= 65535)) {
    io.stderr(`Error: --port ${args.port}: expected a TCP port 0–65535; e.g. --port 8000`);
    return EXIT.usage;
  }
  if (args.host !== undefined && isIP(args.host) === 0) {
    io.stderr(`Error: --host ${args.host}: expected an IP address to bind; e.g. --host 127.0.0.1`);
    return EXIT.usage;
  }
  try {
    // Loaded only now: these modules require express, passport and pino.
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded once the api extra is known to be installed */
    const { loadApiConfig } = require('./config/api-config') as typeof import('./config/api-config');
    const { startApi } = require('./server') as typeof import('./server');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const config = loadApiConfig(args.config, io.env, io.cwd, {
      ...(args.host !== undefined ? { host: args.host } : {}),
      ...(args.port !== undefined ? { port: Number(args.port) } : {}),
    });
    const api = await startApi(config, { env: io.env, cwd: io.cwd });
    // Before the listening line: whoever reads it may stop the server at once.
    const stop = () => void api.close().then(() => process.exit(EXIT.ok));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const methods = [config.auth.negotiate && 'negotiate', config.auth.mtls && 'mtls', config.auth.proxy && 'proxy'].filter(Boolean);
    io.stderr(
      `svc-api listening on ${api.url} (auth: ${methods.join(', ') || 'none configured'}; OpenAPI at ${api.url}/openapi.json, docs at ${api.url}/docs)`,
    );
    for (const warning of api.warnings) io.stderr(`Warning: ${warning}`);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      io.stderr(`Error: cannot listen (${code}): ${(error as Error).message}; pick another --host or --port`);
      return EXIT.environment;
    }
    const exit = exitCodeFor(error);
    io.stderr(
      exit === EXIT.internal ? `Error: internal error: ${(error as Error).message}; rerun with NODE_DEBUG or report it` : `Error: ${(error as Error).message}`,
    );
    return exit;
  }
}
