/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import type { DependencyContainer } from 'tsyringe';
import { ARTIFACT_WRITER } from '../../ports/artifact-writer';
import { PARTITIONED_REPORT_READER } from '../../ports/partitioned-report';
import { REPORT_READER } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { FsReportReader } from '../reports/fs-report-reader';
import { lazy, type RegistrationContext } from './lazy';

/** Reading reports and scanners' files, and writing the artifacts made of them. */
export function registerInputsAndArtifacts(container: DependencyContainer, { env }: RegistrationContext): void {
  const splitMinBytes = env.SVC_SPLIT_MIN_BYTES === undefined ? undefined : Number(env.SVC_SPLIT_MIN_BYTES);
  const reader = new FsReportReader();
  container.register(REPORT_READER, { useValue: reader });
  lazy(
    container,
    PARTITIONED_REPORT_READER,
    () => require('../reports/parallel-report-reader') as typeof import('../reports/parallel-report-reader'),
    (m) => new m.ParallelReportReader(reader, { splitMinBytes }),
  );
  lazy(
    container,
    ARTIFACT_WRITER,
    () => require('../artifacts/fs-artifact-writer') as typeof import('../artifacts/fs-artifact-writer'),
    (m) => new m.FsArtifactWriter(),
    { perContainer: true },
  );
  // The parsers (and their XML and CSV libraries) load only when a scan is read or asked about: every use case that
  // reads a normalized report holds the reader, to name the scanner of a scanner's file given instead (scanner-output.ts).
  let scans: ScanReader | undefined;
  const scanReader = (): ScanReader =>
    (scans ??= new (require('../scans/vendor-scan-reader') as typeof import('../scans/vendor-scan-reader')).VendorScanReader(
      (require('../scans/registry') as typeof import('../scans/registry')).VENDOR_PARSERS,
    ));
  container.register(SCAN_READER, {
    useValue: { vendors: () => scanReader().vendors(), read: (vendor, path) => scanReader().read(vendor, path), detect: (path) => scanReader().detect(path) },
  });
}
