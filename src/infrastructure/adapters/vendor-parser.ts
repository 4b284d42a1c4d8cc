import { InvalidInputError } from '../../domain/errors';
import type { VendorScan } from '../../domain/scan/scan';
import type { VendorInfo } from '../../ports/scan-reader';
import type { RawInput } from './raw-input';

/**
 * One scanner's output format. `looksLike` decides from the first 64 KiB of a file whether it is this
 * format (it is also asked when a file was given to another vendor, to say what the file looks like);
 * `parse` reads the whole file and throws InvalidInputError naming the file and the place for a file of the
 * right kind but the wrong shape.
 */
export interface VendorParser {
  readonly info: VendorInfo;
  looksLike(head: string): boolean;
  parse(input: RawInput): Promise<VendorScan>;
}

/** An InvalidInputError for a file of the right kind but the wrong shape, naming the place. */
export function shapeError(input: RawInput, tool: string, path: string, problem: string): InvalidInputError {
  return new InvalidInputError('invalid-scan', `${input.path}: ${path}: ${problem}; this is not ${tool} output as svc knows it (docs/adapters.md)`);
}

/** ISO-8601 of a time a tool wrote in any form Date understands; undefined when it is not a time. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString().replace(/\.000Z$/, 'Z');
}
