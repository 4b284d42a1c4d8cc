/**
 * The error family every layer throws. `kind` decides the exit code and HTTP status
 * (src/interfaces/shared/error-mapping.ts); `code` is a stable kebab id that names the problem
 * type in problem+json bodies and the anchor in docs/errors.md.
 */
export type ErrorKind = 'invalid-input' | 'not-found' | 'conflict' | 'integrity' | 'permission' | 'unavailable' | 'config' | 'usage';

export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;

  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A document or argument does not have the expected shape. */
export class InvalidInputError extends AppError {
  readonly kind = 'invalid-input';
}

/** A file, control, run or KSI that was asked for does not exist. */
export class NotFoundError extends AppError {
  readonly kind = 'not-found';
}

/** The operation would overwrite or race with something that exists. */
export class ConflictError extends AppError {
  readonly kind = 'conflict';
}

/** A hash, Merkle root or signature does not match. */
export class IntegrityError extends AppError {
  readonly kind = 'integrity';
}

/** The caller or the OS user lacks rights. */
export class PermissionError extends AppError {
  readonly kind = 'permission';
}

/** A store or remote service cannot be reached. */
export class UnavailableError extends AppError {
  readonly kind = 'unavailable';
}

/** The environment or configuration is missing something the operation needs. */
export class ConfigError extends AppError {
  readonly kind = 'config';
}

/** A command line or query that cannot be understood (bad flag value, malformed id). */
export class UsageError extends AppError {
  readonly kind = 'usage';
}
