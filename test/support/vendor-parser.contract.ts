import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { VendorParser } from '../../src/infrastructure/scans/vendor-parser';
import { readWith, scratchFolder } from './adapters';
import { REFERENCE } from './run-svc';

/** How a file of the format is read, which decides what a file cut short gives: invalid-json, invalid-xml or invalid-csv. */
export type Syntax = 'json' | 'xml' | 'csv';

/** A real file of a vendor's format. */
export interface ContractSample {
  path: string;
  syntax: Syntax;
}

/** Only where a vendor's format differs from the default: JSON read whole, its real files in raw-samples/<vendor>/. */
export interface VendorParserContractOptions {
  /** How the files of raw-samples/<vendor>/ are read (default json). */
  syntax?: Syntax;
  /** Real files beyond raw-samples/<vendor>/ (another form the vendor writes, or a vendor without a folder there), each with its syntax. */
  moreSamples?: readonly ContractSample[];
  /** An XML format with more than one root element (XCCDF: Benchmark, TestResult or an ARF collection): how the refusal names them. */
  roots?: string;
}

const RAW_SAMPLES = join(REFERENCE, 'raw-samples');
/** 512 MiB: 24 bytes more than the longest string V8 holds (0x1fffffe8, RawInput's MAX_TEXT_BYTES). */
const TOO_LARGE = 0x20000000;
/** What RawInput.head reads for looksLike. */
const HEAD = 64 * 1024;

const isSample = (file: string) => !/\.(md|tsv)$/.test(file);
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The 1-based line a text cut short ends on: where a parser finds the end it was still waiting for. */
const lastLine = (text: string) => text.split('\n').length;

/** The name of an XML document's root element (after its declaration, comments and doctype). */
function rootElement(xml: string): string {
  const root = /<([A-Za-z_][\w.:-]*)[\s/>]/.exec(xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, ''));
  if (!root) throw new Error('no root element');
  return root[1].split(':').pop() as string;
}

/** The real files of raw-samples/<vendor>/ (its README and .tsv tables aside); none when the vendor has no folder. */
function rawSamplesOf(vendor: string): string[] {
  const dir = join(RAW_SAMPLES, vendor);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter(isSample)
        .sort()
        .map((file) => join(dir, file))
    : [];
}

/**
 * Every real scanner file, by the vendor that wrote it: each folder of raw-samples/, and NIST's OSCAL examples as
 * oscal-ar's (format-detection.test.ts shows each is claimed by its own vendor's looksLike alone, InSpec and HDF aside).
 */
function realFiles(): { vendor: string; path: string }[] {
  const folders = readdirSync(RAW_SAMPLES, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const oscal = join(REFERENCE, 'oscal', 'examples');
  return [
    ...folders.flatMap((folder) => rawSamplesOf(folder.name).map((path) => ({ vendor: folder.name, path }))),
    ...readdirSync(oscal)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => ({ vendor: 'oscal-ar', path: join(oscal, file) })),
  ];
}

/** Whether `parser` reads `vendor`'s files too: its own, or one of a format that is a narrower or wider form of the other's (InSpec in HDF). */
function reads(parser: VendorParser, vendor: string, registry: readonly VendorParser[]): boolean {
  const other = registry.find((p) => p.info.vendor === vendor);
  return vendor === parser.info.vendor || (parser.generalizes ?? []).includes(vendor) || (other?.generalizes ?? []).includes(parser.info.vendor);
}

/**
 * The bad-input cases every vendor parser passes, read as `svc adapter run <vendor> <file>` reads them
 * (VendorScanReader: size, kind and format checks, then the parser): each error is one line naming the file, what
 * is wrong and the fix, with its code. `registry` is every parser (VENDOR_PARSERS), whose real files are the other
 * vendors' files this one must refuse. A vendor's own shape errors (a status it does not write, a missing id, a
 * list where an object belongs) stay in its own test file.
 */
export function vendorParserContract(parser: VendorParser, registry: readonly VendorParser[], options: VendorParserContractOptions = {}): void {
  const { vendor, tool, formats } = parser.info;
  const samples: ContractSample[] = [...rawSamplesOf(vendor).map((path) => ({ path, syntax: options.syntax ?? 'json' })), ...(options.moreSamples ?? [])];
  if (samples.length === 0) throw new Error(`${vendor}: no real file to cut short; add raw-samples/${vendor}/ or give moreSamples`);

  describe(`${tool} (${vendor}) on bad input: the cases every vendor parser passes`, () => {
    const { write, path } = scratchFolder(`svc-contract-${vendor}-`);

    it('refuses an empty file, naming it and the file to pass instead', async () => {
      const empty = write('empty.out', '');
      await expect(readWith(parser, empty)).rejects.toMatchObject({
        kind: 'invalid-input',
        code: 'input-empty',
        message: `${empty}: the file is empty; pass the ${tool} output file itself`,
      });
    });

    it('refuses a directory, naming it', async () => {
      const dir = path('a-folder');
      mkdirSync(dir);
      writeFileSync(join(dir, basename(samples[0].path)), readFileSync(samples[0].path));
      await expect(readWith(parser, dir)).rejects.toMatchObject({
        kind: 'invalid-input',
        code: 'input-is-directory',
        message: `${dir}: is a directory, expected a scanner's output file; pass the file itself`,
      });
    });

    it('refuses a path where no file is, naming it', async () => {
      const missing = path('no-such-scan.out');
      await expect(readWith(parser, missing)).rejects.toMatchObject({
        kind: 'not-found',
        code: 'file-not-found',
        message: `${missing}: no such input file; check the path`,
      });
    });

    it(`refuses every other vendor's real file as not ${tool} output, naming the file and the formats it reads`, async () => {
      const foreign = realFiles().filter((file) => !reads(parser, file.vendor, registry));
      // Files of every vendor of the registry whose format this parser does not read.
      expect([...new Set(foreign.map((file) => file.vendor))].sort()).toEqual(
        registry
          .map((p) => p.info.vendor)
          .filter((other) => !reads(parser, other, registry))
          .sort(),
      );
      for (const file of foreign) {
        await expect(readWith(parser, file.path)).rejects.toMatchObject({
          kind: 'invalid-input',
          code: 'wrong-vendor',
          message: `${file.path}: does not look like ${tool} output; expected ${formats}`,
        });
      }
    });

    for (const sample of samples) {
      const name = basename(sample.path);
      it(`reports ${name} cut short as invalid ${sample.syntax.toUpperCase()}, naming the file, the place and the fix`, async () => {
        const bytes = readFileSync(sample.path);
        const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
        const truncated = write(`truncated-${name}`, cut);
        const line = lastLine(cut.toString('utf8'));
        const expected = {
          json: {
            code: 'invalid-json',
            message: new RegExp(
              `^${literally(truncated)}: invalid JSON at line ${line}, column \\d+: .+; fix the syntax there \\(a JSON validator shows the context\\)$`,
            ),
          },
          xml: {
            code: 'invalid-xml',
            message: new RegExp(`^${literally(truncated)}: invalid XML: ${line}:\\d+: .+; the file is damaged or cut short, export it again$`),
          },
          csv: { code: 'invalid-csv', message: new RegExp(`^${literally(truncated)}: invalid CSV: .+; the file is damaged or cut short, export it again$`) },
        }[sample.syntax];
        await expect(readWith(parser, truncated)).rejects.toMatchObject({
          kind: 'invalid-input',
          code: expected.code,
          message: expect.stringMatching(expected.message),
        });
      });
    }

    const xml = samples.find((sample) => sample.syntax === 'xml');
    if (xml) {
      const name = basename(xml.path);
      it(`refuses ${name} under another root element, naming the root it expects`, async () => {
        const text = readFileSync(xml.path, 'utf8').replace(/^\uFEFF/, '');
        const wrapped = write(`wrapped-${name}`, `<export>${text.replace(/^<\?xml[^>]*>/, '')}</export>`);
        await expect(readWith(parser, wrapped)).rejects.toMatchObject({
          kind: 'invalid-input',
          code: 'invalid-scan',
          message: `${wrapped}: export: the root element should be ${options.roots ?? rootElement(text)}; this is not ${tool} output as svc knows it (docs/adapters.md)`,
        });
      });
    }

    // An XML file is streamed, whatever its size (nessus.test.ts reads ~100 MB): only a format read whole has a limit.
    const whole = samples.find((sample) => sample.syntax !== 'xml');
    if (whole) {
      it(`refuses a copy of ${basename(whole.path)} grown past what one string can hold, naming it, before reading it`, async () => {
        // Sparse: the sample's first bytes (so looksLike takes it), then a hole up to 512 MiB that takes no disk.
        const large = write(`large-${basename(whole.path)}`, readFileSync(whole.path).subarray(0, HEAD));
        truncateSync(large, TOO_LARGE);
        await expect(readWith(parser, large)).rejects.toMatchObject({
          kind: 'invalid-input',
          code: 'input-too-large',
          message: `${large}: ${TOO_LARGE} bytes is more than this format can be read in one piece (512 MiB); split the scan into smaller runs`,
        });
      });
    }
  });
}
