import { inject, injectable } from 'tsyringe';
import { assess } from '../../domain/assessment/assessment';
import type { InputRef } from '../../domain/artifacts/run-context';
import { diffMarkdown, diffRuns, type RunDiff } from '../../domain/drift/run-diff';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { loadReport } from '../shared/load-report';
import { entryHashes } from '../shared/run-inputs';

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
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ runA, runB }: DiffRunsInput): Promise<DiffRunsResult> {
    const catalog = this.catalogs.catalog();
    const side = async (path: string) => {
      const { file, report } = await loadReport(this.reader, path);
      const assessment = assess(report.results, catalog, this.settings.governance);
      return { ref: { name: file.name, sha256: file.sha256 }, side: { items: assessment.items, hashes: entryHashes(assessment, this.hashing) } };
    };
    const a = await side(runA);
    const b = await side(runB);
    const diff = diffRuns(a.side, b.side);
    return { runA: a.ref, runB: b.ref, diff, markdown: [...diffMarkdown(diff, a.ref, b.ref)].join('') };
  }
}
