import { AppError, type ErrorKind } from '../../domain/errors';

/** Exit codes of DESIGN §8; the only place they are chosen. */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  input: 3,
  integrity: 4,
  environment: 5,
  internal: 70,
} as const;

const EXIT_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': EXIT.input,
  'not-found': EXIT.input,
  conflict: EXIT.input,
  integrity: EXIT.integrity,
  permission: EXIT.environment,
  unavailable: EXIT.environment,
  config: EXIT.environment,
  usage: EXIT.usage,
};

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
  integrity: 422,
  permission: 403,
  unavailable: 503,
  config: 500,
  usage: 400,
};

export function exitCodeFor(error: unknown): number {
  return error instanceof AppError ? EXIT_BY_KIND[error.kind] : EXIT.internal;
}

export function httpStatusFor(error: unknown): number {
  return error instanceof AppError ? STATUS_BY_KIND[error.kind] : 500;
}
