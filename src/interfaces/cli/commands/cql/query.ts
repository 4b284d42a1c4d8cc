import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { RunQuery, type RunQueryResult } from '../../../../application/cql/run-query';
import { cqlCsv, cqlTable } from '../../cql-output';
import { nowFlag, parseNow } from '../../flags';

export default class CqlQuery extends BaseCommand {
  static summary = 'Answer a compliance query (CQL, docs/cql.md) over results, evidence, actions, poam or recorded runs.';
  static examples = [
    '<%= config.bin %> <%= command.id %> "FROM results WHERE status != PASS AND area = IAM ORDER BY severity DESC LIMIT 10"',
    '<%= config.bin %> <%= command.id %> "FROM actions WHERE sev IN (Critical, High) SELECT ksi_id, owner, sla" --input fixtures/sample-baseline.json',
    '<%= config.bin %> <%= command.id %> "FROM results GROUP BY area COUNT" --format csv',
    '<%= config.bin %> <%= command.id %> "FROM runs WHERE fail > 0 ORDER BY seq DESC"',
  ];
  static enableJsonFlag = true;
  static args = { query: Args.string({ required: true, description: 'The query, e.g. "FROM results WHERE status = FAIL"' }) };
  static flags = {
    input: Flags.string({
      summary: 'Normalized report, evidence-bundle.json or bundle directory to query instead of the run store (repeatable).',
      helpValue: '<file>',
      multiple: true,
    }),
    format: Flags.string({ summary: 'Output format.', options: ['table', 'json', 'csv'], default: 'table' }),
    now: nowFlag,
  };

  async run(): Promise<RunQueryResult> {
    const { args, flags } = await this.parse(CqlQuery);
    const result = await this.resolve(RunQuery).execute({ query: args.query, inputs: flags.input, now: parseNow(flags.now) });
    if (this.jsonEnabled()) return result;
    if (flags.format === 'json') this.print(JSON.stringify(result, null, 2));
    else if (flags.format === 'csv') this.write(cqlCsv(result.columns, result.rows));
    else this.print(cqlTable(result.columns, result.rows));
    return result;
  }
}
