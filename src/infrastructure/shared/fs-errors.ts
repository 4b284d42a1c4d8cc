import { AppError, InvalidInputError, NotFoundError, PermissionError, UnavailableError } from '../../domain/errors';

/** Node's errno errors as AppErrors naming the path, with the original as `cause`; anything else (a bug) unchanged. */
export function translateFsError(error: unknown, path: string, what: string): unknown {
  // Duck-typed: errors from Node's core may come from another realm (a vm context, a test runner).
  if (error instanceof AppError || typeof error !== 'object' || error === null || typeof (error as NodeJS.ErrnoException).code !== 'string') return error;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return new NotFoundError('file-not-found', `${path}: no such ${what}; check the path`, { cause: error });
    case 'EISDIR':
      return new InvalidInputError('input-is-directory', `${path}: is a directory, expected a file; pass the file itself`, { cause: error });
    case 'ENOTDIR':
      return new InvalidInputError('not-a-directory', `${path}: a part of the path is a file, not a directory; fix the path`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new PermissionError('permission-denied', `${path}: permission denied; check the ${what}'s permissions`, { cause: error });
    case 'ENOSPC':
      return new UnavailableError('no-space', `${path}: no space left on the device; free some space and run again`, { cause: error });
    default:
      return new InvalidInputError('io-error', `${path}: cannot use this ${what} (${code})`, { cause: error });
  }
}
