import { stat } from 'node:fs/promises';
import { InvalidInputError } from '../../domain/errors';
import type { ReadScan, ScanReader, VendorInfo } from '../../ports/scan-reader';
import { translateFsError } from '../shared/fs-errors';
import { RawInput } from './raw-input';
import type { VendorParser } from './vendor-parser';

/** SCAN_READER over the vendor parsers in `vendors/`: checks the file is of the vendor's kind, then parses it. */
export class VendorScanReader implements ScanReader {
  constructor(private readonly parsers: readonly VendorParser[]) {}

  vendors(): VendorInfo[] {
    return this.parsers.map((p) => p.info);
  }

  async read(vendor: string, path: string): Promise<ReadScan> {
    const parser = this.parsers.find((p) => p.info.vendor === vendor);
    if (!parser)
      throw new InvalidInputError(
        'unknown-vendor',
        `unknown vendor "${vendor}"; use one of ${this.parsers.map((p) => p.info.vendor).join(', ')} (svc adapter run --list)`,
      );
    const input = new RawInput(path, await sizeOf(path));
    if (input.size === 0) throw new InvalidInputError('input-empty', `${path}: the file is empty; pass the ${parser.info.tool} output file itself`);
    const head = await input.head();
    if (!parser.looksLike(head)) {
      const others = this.parsers.filter((p) => p !== parser && p.looksLike(head));
      const other = widest(others) ?? others[0];
      const hint = other ? `it looks like ${other.info.tool} output: try "svc adapter run ${other.info.vendor} ${path}"` : `expected ${parser.info.formats}`;
      throw new InvalidInputError('wrong-vendor', `${path}: does not look like ${parser.info.tool} output; ${hint}`);
    }
    const scan = { ...(await parser.parse(input)), detections: parser.info.detections };
    return { file: { name: input.name, path, sha256: input.sha256, bytes: input.size }, scan };
  }

  async detect(path: string): Promise<VendorInfo> {
    const input = new RawInput(path, await sizeOf(path));
    if (input.size === 0) throw new InvalidInputError('input-empty', `${path}: the file is empty; pass the scanner's output file itself`);
    const head = await input.head();
    const matches = this.parsers.filter((p) => p.looksLike(head));
    const general = widest(matches);
    if (general !== undefined) return general.info;
    const vendors = this.parsers.map((p) => p.info.vendor).join(', ');
    if (matches.length === 0)
      throw new InvalidInputError(
        'vendor-not-detected',
        `${path}: looks like the output of none of the ${this.parsers.length} scanners svc reads (${vendors}); name the vendor (svc adapter run <vendor> ${path}), or check that this is the scanner's JSON or XML output file`,
      );
    throw new InvalidInputError(
      'vendor-ambiguous',
      `${path}: looks like the output of ${matches.map((p) => `${p.info.tool} (${p.info.vendor})`).join(' and of ')}; name the one it is: ${matches.map((p) => `svc adapter run ${p.info.vendor} ${path}`).join(' or ')}`,
    );
  }
}

/** The one of `matches` whose format holds all the others' (VendorParser.generalizes), or the only one. */
function widest(matches: readonly VendorParser[]): VendorParser | undefined {
  return matches.find((m) => matches.every((other) => other === m || m.generalizes?.includes(other.info.vendor)));
}

async function sizeOf(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw new InvalidInputError('input-is-directory', `${path}: is a directory, expected a scanner's output file; pass the file itself`);
    return info.size;
  } catch (error) {
    throw translateFsError(error, path, 'input file');
  }
}
