import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { HttpProblem, problemFor } from './problem-details';
import { contextOf } from '../requests/request-context';
import type { DetailPolicy } from './server-paths';

/**
 * Answers `req` with the problem+json of `error` (RFC 9457), inside Express or before it: the problem's headers, the
 * request path as `instance`, the request id. A 5xx from an error (not an HttpProblem) is logged with its cause
 * under the request id; the body never carries it. Under `policy`, a principal that may not read server paths (any
 * but an operator) reads the detail with them replaced, and the log keeps the whole detail under the request id.
 */
export function sendProblem(req: IncomingMessage, res: ServerResponse, error: unknown, logger: Logger, policy?: DetailPolicy): void {
  const requestId = contextOf(req).id;
  // Express rewrites req.url inside mounted routers; originalUrl is what the client asked for.
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const { problem, headers } = problemFor(error, url.split('?')[0], requestId);
  // An HttpProblem is an answer chosen on purpose (503 not-ready logs its own line), not a failure with a stack.
  if (problem.status >= 500 && !(error instanceof HttpProblem)) logFailure(logger, requestId, error);
  if (policy !== undefined && !policy.reveals(req)) {
    const scrubbed = policy.paths.scrub(problem.detail);
    if (scrubbed !== problem.detail) {
      logger.info({ req_id: requestId, code: problem.code, detail: problem.detail }, 'problem detail sent without server paths');
      problem.detail = scrubbed;
    }
  }
  const text = JSON.stringify(problem);
  res.writeHead(problem.status, { ...headers, 'Content-Type': 'application/problem+json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The log line of a request that failed on the server's side: its cause and stack, under the request id. */
export function logFailure(logger: Logger, requestId: string, error: unknown): void {
  logger.error(
    { req_id: requestId, err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) },
    'request failed',
  );
}
