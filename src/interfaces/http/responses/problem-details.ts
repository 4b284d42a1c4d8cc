import { AppError } from '../../../domain/errors';
import { httpStatusFor } from '../../shared/error-mapping';

/** The base of every problem `type` URI this API sends: `urn:svc:problem:<code>`, each code listed in docs/api.md. */
export const PROBLEM_TYPE_BASE = 'urn:svc:problem:';

/** An RFC 9457 problem detail, as sent with `Content-Type: application/problem+json`. */
export interface ProblemDocument {
  type: string;
  /** The stable kebab id of the problem (the last part of `type`). */
  code: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** The request id (also in the `X-Request-Id` response header), so a log line can be found. */
  request_id?: string;
  /** Per-field validation messages, for 400s from the route schemas. */
  errors?: { pointer: string; detail: string }[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * An error a driving adapter of the API raises to answer with a given status. `code` is the problem type's stable
 * id; `headers` are added to the response (for example `WWW-Authenticate` on a 401, `Retry-After` on a 429/503).
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    readonly errors?: { pointer: string; detail: string }[],
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

/** The problem document for any error: HttpProblem and AppError keep their message, anything else is a bare 500. */
export function problemFor(error: unknown, instance?: string, requestId?: string): { problem: ProblemDocument; headers: Record<string, string> } {
  let status = 500;
  let code = 'internal';
  let detail = 'internal error; the request id identifies the log line with the cause';
  let headers: Record<string, string> = {};
  let errors: ProblemDocument['errors'];
  if (error instanceof HttpProblem) {
    ({ status, code, detail, headers, errors } = error);
  } else if (error instanceof AppError) {
    status = httpStatusFor(error);
    code = error.code;
    detail = error.message;
  }
  const problem: ProblemDocument = {
    type: PROBLEM_TYPE_BASE + code,
    code,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...(instance !== undefined ? { instance } : {}),
    ...(requestId !== undefined ? { request_id: requestId } : {}),
    ...(errors ? { errors } : {}),
  };
  return { problem, headers };
}
