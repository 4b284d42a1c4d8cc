import { inject, injectable } from 'tsyringe';
import { normalizeControlId } from '../../domain/catalog/ksi-catalog';
import { NotFoundError, UsageError } from '../../domain/errors';
import { evidenceGraph, type EvidenceGraph } from '../../domain/evidence/evidence-graph';
import { inclusionProof } from '../../domain/evidence/merkle';
import { HASHING, type Hashing } from '../../ports/hashing';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

export interface TraceControlResult extends EvidenceGraph {
  run: RunRef;
}

/** GET /auditor/graph/{control_id}: one control's KSIs, evidence (with Merkle inclusion proofs), actions and POA&M items. */
@injectable()
export class TraceControl {
  constructor(
    private readonly current: CurrentRun,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  async execute(input: { control: string }): Promise<TraceControlResult> {
    const control = normalizeControlId(input.control);
    if (control === undefined) throw new UsageError('bad-control-id', `control ${JSON.stringify(input.control)}: not a control id; write it like ac-2, ac-2.1 or AC-2(1)`);
    const { summary, run } = await this.current.get();
    if (run.catalog.controlTitle(control) === undefined) {
      throw new NotFoundError('unknown-control', `control ${control} is not in the ${run.catalog.data.source.baseline}; pick a control it selects (svc ksi list shows them)`);
    }
    const hashes = run.results.map((r) => r.hash);
    const graph = evidenceGraph({
      items: run.results.map((r) => r.item),
      hashes,
      merkleRoot: run.merkleRoot,
      catalog: run.catalog,
      control,
      proofOf: (i) => inclusionProof(hashes, i, this.hashing),
    });
    return { run: runRef(summary), ...graph };
  }
}
