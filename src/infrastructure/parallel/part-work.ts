import { sortedById } from '../../domain/assessment/assessment';
import { renderPartition } from '../../domain/artifacts/partition';
import type { TextSink } from '../../domain/artifacts/text-sink';
import { KsiCatalog } from '../../domain/catalog/ksi-catalog';
import type { ContentDigest } from '../../domain/evidence/content-digest';
import { decideAction } from '../../domain/governance/governance-policy';
import { SEVERITIES, type Severity } from '../../domain/governance/severity';
import { readNormalizedReport, type KsiResult } from '../../domain/ksi/ksi-result';
import { countStatuses } from '../../domain/ksi/status';
import type { Fragment, PartCheck, PartJob, PartRules, RenderedPart } from '../../ports/report-reader';

/** A fragment being written: text in, a Fragment out when closed. */
export interface FragmentSink extends TextSink {
  close(): Fragment;
}

/**
 * What a later part of a report does with its results, wherever it runs (a worker thread in production,
 * the test's own thread in the use-case tests): check them as the whole report would be checked, then
 * render them into fragments.
 */
export class PartWork {
  private catalog?: KsiCatalog;

  constructor(private readonly results: KsiResult[] | undefined, private readonly parseError?: string) {}

  check(rules: PartRules): PartCheck {
    const results = this.results;
    if (!results) return { ok: false, reason: `part does not parse: ${this.parseError}` };
    const accepted = new Set(rules.acceptIds);
    try {
      readNormalizedReport(results, 'part', { arrayPath: rules.arrayPath, acceptsId: (x) => accepted.has(x) });
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    const catalog = new KsiCatalog(rules.catalog, rules.extra);
    this.catalog = catalog;
    return {
      ok: true,
      count: results.length,
      first: results[0]?.ksi_id,
      last: results.at(-1)?.ksi_id,
      sorted: sortedById(results) === results,
      statuses: countStatuses(results),
      mapped: results.filter((r) => catalog.get(r.ksi_id) !== undefined),
    };
  }

  render(job: PartJob, digest: ContentDigest, open: (name: string) => FragmentSink): RenderedPart {
    const { results, catalog } = this;
    if (!results || !catalog) throw new Error('render before a successful check');
    const sinks = { evidence: open('evidence'), poam: open('poam'), lineage: open('lineage') };
    const leaves = Buffer.alloc(32 * results.length);
    let count = 0;
    const outcome = renderPartition({
      results,
      catalog,
      policy: job.policy,
      context: job.context,
      digest,
      sinks,
      preceded: job.preceded,
      onEntry: (hash) => {
        leaves.write(hash, 32 * count++, 32, 'hex');
      },
    });
    const actionAt = (i: number) => decideAction(results[i].ksi_id, results[i].status, catalog.get(results[i].ksi_id), job.policy);
    const governance = {} as Record<Severity, Fragment>;
    for (const severity of SEVERITIES) {
      const sink = open(`governance-${severity}`);
      outcome.governance.write(sink, severity, actionAt);
      governance[severity] = sink.close();
    }
    return {
      counts: outcome.tally.counts,
      unmapped: outcome.tally.unmapped,
      poamRows: outcome.poamRows,
      actions: outcome.governance.totals,
      leaves: new Uint8Array(leaves.buffer, leaves.byteOffset, leaves.length),
      fragments: { evidence: sinks.evidence.close(), poam: sinks.poam.close(), lineage: sinks.lineage.close(), governance },
    };
  }
}
