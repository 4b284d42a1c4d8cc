import { inject, injectable } from 'tsyringe';
import { sortedById } from '../../domain/assessment/assessment';
import type { InputRef } from '../../domain/artifacts/run-context';
import { diffMarkdown, diffRuns, type RunDiff } from '../../domain/drift/run-diff';
import { evidenceHash } from '../../domain/evidence/evidence-entry';
import type { KsiResult } from '../../domain/ksi/ksi-result';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { SCAN_READER, type ScanReader } from '../../ports/scan-reader';
import { loadReport } from '../shared/load-report';

export interface DiffRunsInput {
  runA: string;
  runB: string;
}

export interface DiffRunsResult {
  runA: InputRef;
  runB: InputRef;
  diff: RunDiff;
  markdown: string;
}

/** Compares two normalized reports: transitions, evidence hash deltas, status counts (`svc ir diff`). */
@injectable()
export class DiffRuns {
  constructor(
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCAN_READER) private readonly scans: ScanReader,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  async execute({ runA, runB }: DiffRunsInput): Promise<DiffRunsResult> {
    const catalog = this.catalogs.catalog();
    const a = await loadReport(this.reader, this.scans, runA);
    const b = await loadReport(this.reader, this.scans, runB);
    const hashOf = (result: KsiResult) => evidenceHash(result, catalog.get(result.ksi_id), this.hashing);
    const diff = diffRuns(sortedById(a.report.results), sortedById(b.report.results), hashOf);
    const [refA, refB] = [a, b].map(({ file }) => ({ name: file.name, sha256: file.sha256 }));
    return { runA: refA, runB: refB, diff, markdown: [...diffMarkdown(diff, refA, refB)].join('') };
  }
}
