import { inject, injectable } from 'tsyringe';
import type { RunDocument } from '../../domain/conmon/run-record';
import { NotFoundError } from '../../domain/errors';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { MANIFEST_DOCUMENT } from '../conmon/run-documents';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

export interface OpenRunDocument {
  run: RunRef;
  document: RunDocument;
  /** The stored bytes, checked against the hash chain as they stream (run-store-tampered at the end if not). */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * GET /auditor/oscal/{ssp,sar,sap,poam} and /auditor/manifest: a document of the current run exactly as `svc conmon
 * process` stored it when it recorded the run (docs/conmon.md, "Run documents"). Nothing is built per request: the
 * bytes stream from the run store a part at a time.
 */
@injectable()
export class ReadRunDocument {
  constructor(
    private readonly current: CurrentRun,
    @inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  async execute(input: { name: string }): Promise<OpenRunDocument> {
    const summary = await this.current.summary();
    const opened = await this.store.openDocument(summary.id, input.name);
    if (opened) return { run: runRef(summary), ...opened };
    if (input.name === MANIFEST_DOCUMENT || !(await this.store.openDocument(summary.id, MANIFEST_DOCUMENT))) {
      throw new NotFoundError(
        'no-run-documents',
        `run ${summary.seq} (${summary.id.slice(0, 12)}) was recorded without its documents (by svc 0.5.0); record a run with this svc (svc conmon process <report>) and the API serves its documents`,
      );
    }
    throw new NotFoundError(
      'no-such-document',
      `run ${summary.seq} (${summary.id.slice(0, 12)}) has no ${input.name}${input.name === 'poam.json' ? ': every result passed, and an OSCAL POA&M needs at least one item' : ''}`,
    );
  }
}
