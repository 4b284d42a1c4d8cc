import { inject, injectable } from 'tsyringe';
import { assessor } from '../../domain/assessment/assessment';
import { needsPoam, poamRow } from '../../domain/artifacts/poam';
import type { StoredRun } from '../../domain/conmon/run-record';
import { cqlRows, runRows, type CqlRow, type CqlRun } from '../../domain/cql/cql-fields';
import type { CqlSource } from '../../domain/cql/cql-query';
import { evaluateQuery, type CqlTable } from '../../domain/cql/evaluate-query';
import { NotFoundError, UsageError } from '../../domain/errors';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { QUERY_PARSER, type QueryParser } from '../../ports/query-parser';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { RunLoader } from '../shared/run-loader';
import { readStoredResults } from '../shared/stored-bundle';

export interface RunQueryInput {
  /** The CQL text (docs/cql.md). */
  query: string;
  /** Reports, evidence-bundle.json files or bundle directories; without any, the run store's latest run. */
  inputs?: readonly string[];
  /** Ages are measured at this time (`--now`); default the clock's. */
  now?: Date;
}

export interface RunQueryResult extends CqlTable {
  source: CqlSource;
  /** What was read: the input paths, or `<store location> run <seq>` (every run for `FROM runs`). */
  from: string[];
}

/**
 * `svc cql query`: parses a query and answers it over the results, evidence, actions and POA&M items of the given
 * inputs (rows concatenated in input order) or of the run store's latest run, or over the store's runs.
 */
@injectable()
export class RunQuery {
  constructor(
    @inject(QUERY_PARSER) private readonly parser: QueryParser,
    private readonly runs: RunLoader,
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ query: text, inputs = [], now = this.clock.now() }: RunQueryInput): Promise<RunQueryResult> {
    const query = this.parser.parse(text);
    const { source } = query;
    let rows: CqlRow[];
    let from: string[];
    if (source === 'runs') {
      if (inputs.length > 0)
        throw new UsageError('cql-runs-input', 'FROM runs reads the run store; drop --input, or query results, evidence, actions or poam of the inputs');
      const summaries = await this.store.list();
      rows = runRows(summaries, now);
      from = [this.store.location];
    } else if (inputs.length > 0) {
      rows = [];
      for (const input of inputs) rows.push(...cqlRows(source, await this.loaded(input), now));
      from = [...inputs];
    } else {
      const latest = await this.store.latest();
      if (!latest)
        throw new NotFoundError(
          'cql-no-runs',
          `the run store at ${this.store.location} holds no runs; pass --input <report> or record a run with svc conmon process`,
        );
      rows = cqlRows(source, await this.stored(latest), now);
      from = [`${this.store.location} run ${latest.summary.seq}`];
    }
    return { source, from, ...evaluateQuery(query, rows, now) };
  }

  /** A report or bundle, assessed; its POA&M items are the rows its poam.json would hold. */
  private async loaded(input: string): Promise<CqlRun> {
    const run = await this.runs.load({ input });
    const poam = run.results.filter(({ item }) => needsPoam(item)).map(({ item }) => poamRow(item, run.context));
    return { input: run.context.input.name, context: run.context, results: run.results, poam };
  }

  /** A recorded run, assessed again with today's catalog, with the POA&M items the lifecycle tracks after it. */
  private async stored(stored: StoredRun): Promise<CqlRun> {
    const results = await readStoredResults(this.store, stored.summary, assessor(this.catalogs.catalog(), this.settings.governance));
    const report = stored.record.report;
    const context = { input: stored.summary.input, source: report?.source, generatedAt: report?.generated_at, runAt: new Date(stored.summary.recorded_at) };
    return { input: stored.summary.input.name, context, results, poam: stored.poam };
  }
}
