import { createHash } from 'node:crypto';
import { PROVIDER_NAME } from '../../domain/agency/providers';
import { IntegrityError, InvalidInputError, NotFoundError } from '../../domain/errors';

/**
 * What both agency stores (FileAgencyStore, PostgresAgencyStore) check of their arguments and say of their documents,
 * in one place so the two answer alike: the AgencyStore contract (test/integration/agency) holds them to it.
 */

const SHA256 = /^[0-9a-f]{64}$/;

/** The hex SHA-256 of `bytes`: a document's address. */
export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `sha256` as a document's address: 64 lowercase hex digits, else InvalidInputError (it names a file of the file store). */
export function checkSha256(sha256: string): string {
  if (typeof sha256 !== 'string' || !SHA256.test(sha256))
    throw new InvalidInputError('agency-bad-sha256', `${JSON.stringify(sha256)} is not a document's SHA-256; expected 64 lowercase hex digits`);
  return sha256;
}

/** `name` as a provider's name (PROVIDER_NAME), else InvalidInputError: the file store makes it a directory's name. */
export function checkProviderName(name: string): string {
  if (typeof name !== 'string' || !PROVIDER_NAME.test(name))
    throw new InvalidInputError(
      'agency-bad-provider',
      `${JSON.stringify(name)} is not a provider name; expected letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit`,
    );
  return name;
}

/** `last` of pulls(): undefined (all of them) or a whole number of at least 1, else InvalidInputError. */
export function checkLast(last: number | undefined): number | undefined {
  if (last !== undefined && (!Number.isSafeInteger(last) || last < 1))
    throw new InvalidInputError('agency-bad-last', `last: expected a whole number of pulls, at least 1, got ${String(last)}`);
  return last;
}

/** No document is stored under `sha256` at `location` (the store's directory or its redacted URL). */
export function documentMissing(location: string, sha256: string): NotFoundError {
  return new NotFoundError('agency-document-missing', `${location}: no document ${sha256} in the agency store; pull the provider again`);
}

/** The bytes stored at `where` no longer hash to their address (or no longer decompress): changed or cut on disk. */
export function documentCorrupt(where: string, sha256: string, cause?: unknown): IntegrityError {
  return new IntegrityError('agency-document-corrupt', `${where}: the stored bytes no longer hash to ${sha256}; pull the provider again`, { cause });
}

/** A stored pull or review that is not the record its place says (not JSON, another provider's, another seq). */
export function recordCorrupt(where: string, what: 'pull' | 'review', problem: string): IntegrityError {
  return new IntegrityError(`agency-${what}-corrupt`, `${where}: not the ${what} record stored there (${problem}); restore it from a backup or remove it`);
}
