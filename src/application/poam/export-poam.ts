import { inject, injectable } from 'tsyringe';
import { PoamRows, POAM_HEAD, POAM_TAIL } from '../../domain/artifacts/poam';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import { runDay } from '../../domain/artifacts/run-context';
import { advanceLifecycle } from '../../domain/conmon/lifecycle';
import type { TrackedPoamItem } from '../../domain/conmon/run-record';
import type { OscalRun } from '../../domain/oscal/oscal-run';
import { buildOscalPoam } from '../../domain/oscal/plan-of-action-and-milestones';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { POAM_WORKBOOK, type PoamWorkbook } from '../../ports/poam-workbook';
import { OscalRunLoader } from '../oscal/oscal-run-loader';
import { writePoamFile } from './write-poam-file';

export const POAM_FORMATS = ['json', 'csv', 'xlsx', 'oscal'] as const;
export type PoamFormat = (typeof POAM_FORMATS)[number];

export interface ExportPoamInput {
  input: string;
  format: PoamFormat;
  out: string;
}

export interface ExportPoamResult {
  input: string;
  format: PoamFormat;
  out: string;
  file: WrittenFile;
  /** Rows written: FAIL and WARN results. */
  rows: number;
  overdue: number;
}

/**
 * The POA&M of a run in the format its reader uses (`svc ir poam-export`): svc's `poam.json`, the FedRAMP POA&M
 * template as CSV or .xlsx, or an OSCAL POA&M. Items are open, overdue when their scheduled completion date is
 * before the run's date; closed items come from the run store (`svc conmon process`).
 */
@injectable()
export class ExportPoam {
  constructor(
    private readonly runs: OscalRunLoader,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(POAM_WORKBOOK) private readonly workbook: PoamWorkbook,
  ) {}

  async execute({ input, format, out }: ExportPoamInput): Promise<ExportPoamResult> {
    const run = await this.runs.load({ input });
    const items = trackedItems(run);
    const file = await writePoamFile(
      { writer: this.writer, workbook: this.workbook },
      out,
      format,
      items,
      () => ({ system: systemOf(run), date: runDay(run.context), tool: run.tool }),
      (s) => {
        if (format === 'oscal') {
          for (const chunk of jsonChunks(buildOscalPoam(run), 'pretty')) s.write(chunk);
          s.write('\n');
        } else {
          s.write(POAM_HEAD);
          const rows = new PoamRows(s, run.context);
          for (const { item } of run.results) rows.add(item);
          s.write(POAM_TAIL);
        }
      },
    );
    return { input, format, out, file, rows: items.length, overdue: items.filter((i) => i.overdue).length };
  }
}

function systemOf(run: OscalRun): string {
  return run.context.source?.tenant ?? run.context.input.name;
}

/** The run's rows as lifecycle items: all open, as a first run opens them. */
function trackedItems(run: OscalRun): TrackedPoamItem[] {
  return advanceLifecycle([], { id: run.context.input.sha256, asOf: runDay(run.context), context: run.context, items: run.results.map((r) => r.item) }).items;
}
