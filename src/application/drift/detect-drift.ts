import { injectable } from 'tsyringe';
import type { InputRef } from '../../domain/artifacts/run-context';
import { countDrift, detectDrift, driftMarkdown, reachesSeverity } from '../../domain/drift/drift-detection';
import type { DriftCounts, DriftFinding, DriftSeverity } from '../../domain/drift/drift-finding';
import { RunLoader } from '../shared/run-loader';

export interface DetectDriftInput {
  runA: string;
  runB: string;
  /** Findings at or above this severity make `gated` true (`--fail-on`). */
  failOn?: DriftSeverity;
}

export interface DetectDriftResult {
  runA: InputRef;
  runB: InputRef;
  findings: DriftFinding[];
  counts: DriftCounts;
  markdown: string;
  /** Some finding reaches failOn. */
  gated: boolean;
}

/** Classifies every change between two runs (reports or bundles) by DESIGN §5's drift table (`svc ir drift-detect`). */
@injectable()
export class DetectDrift {
  constructor(private readonly runs: RunLoader) {}

  async execute({ runA, runB, failOn }: DetectDriftInput): Promise<DetectDriftResult> {
    const a = await this.runs.load({ input: runA });
    const b = await this.runs.load({ input: runB });
    const findings = detectDrift(a, b);
    const [refA, refB] = [a.context.input, b.context.input];
    return {
      runA: refA,
      runB: refB,
      findings,
      counts: countDrift(findings),
      markdown: driftMarkdown(findings, refA, refB),
      gated: failOn !== undefined && findings.some((f) => reachesSeverity(f, failOn)),
    };
  }
}
