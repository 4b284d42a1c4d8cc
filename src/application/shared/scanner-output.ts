import { InvalidInputError } from '../../domain/errors';
import type { ScanReader } from '../../ports/scan-reader';

/** The refusals a scanner's own output meets where a normalized report is read: not JSON, not UTF-8, not the shape. */
const REFUSALS: ReadonlySet<string> = new Set(['invalid-json', 'invalid-utf8', 'invalid-report']);

/**
 * `read`, of the normalized report at `path`. When it refuses that file and the file is a scanner's own output (the
 * adapters' detection: ScanReader.detect), the error is `scanner-output`, naming the scanner and the command that
 * turns its output into a normalized report. Errors about other files, and files no scanner claims, pass unchanged.
 */
export async function readAsReport<T>(scans: ScanReader, path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof InvalidInputError && REFUSALS.has(error.code) && error.message.startsWith(`${path}: `))) throw error;
    const scanner = await scans.detect(path).catch(() => undefined);
    if (scanner === undefined) throw error;
    throw new InvalidInputError(
      'scanner-output',
      `${path}: this is ${scanner.tool} output, not a normalized report; run "svc adapter run auto ${path} --out report.json" first and pass report.json`,
      { cause: error },
    );
  }
}
