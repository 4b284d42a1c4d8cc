import { RunQuery } from '../../../src/application/cql/run-query';
import { RunLoader } from '../../../src/application/shared/run-loader';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { ChevrotainQueryParser } from '../../../src/infrastructure/cql/chevrotain-query-parser';
import { InMemoryRunStore } from '../../fakes/in-memory-run-store';
import { RecordingEventSinks } from '../../fakes/recording-event-sinks';
import { aResult, TEST_SETTINGS } from '../../support/builders';
import { doubles, processRunOver } from '../../support/harness';

const report = (day: string, results: KsiResult[]) => ({
  schema_version: '1',
  generated_at: `${day}T06:00:00Z`,
  source: { tool: 'ScubaGear', version: '1.5.1', tenant: 'contoso.example' },
  results,
});
const files = {
  '/runs/1.json': report('2026-11-01', [aResult('KSI-IA-02', 'FAIL'), aResult('KSI-AU-02', 'PASS', { observed_at: '2026-11-18T00:00:00Z' })]),
  '/runs/2.json': report('2026-11-04', [aResult('KSI-IA-02', 'PASS'), aResult('KSI-AU-02', 'WARN')]),
};
const NOW = new Date('2026-11-20T00:00:00Z');

function setup() {
  const d = doubles(files);
  const store = new InMemoryRunStore();
  const runs = new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, TEST_SETTINGS);
  const process = processRunOver(d, runs, store, new RecordingEventSinks(), TEST_SETTINGS);
  const query = new RunQuery(new ChevrotainQueryParser(), runs, store, d.catalogs, d.clock, TEST_SETTINGS);
  return { query, process, store, d };
}

describe('RunQuery', () => {
  it('answers over the inputs, their rows concatenated in input order with an input field', async () => {
    const { query } = setup();
    const result = await query.execute({
      query: 'FROM results WHERE status != PASS SELECT input, ksi_id, status, age',
      inputs: ['/runs/1.json', '/runs/2.json'],
      now: NOW,
    });
    expect(result).toEqual({
      source: 'results',
      from: ['/runs/1.json', '/runs/2.json'],
      columns: ['input', 'ksi_id', 'status', 'age'],
      rows: [
        ['1.json', 'KSI-IA-02', 'FAIL', 18],
        ['2.json', 'KSI-AU-02', 'WARN', 15],
      ],
    });
    const ages = await query.execute({ query: 'FROM evidence WHERE age > 7d SELECT ksi_id', inputs: ['/runs/1.json'], now: NOW });
    expect(ages.rows).toEqual([['KSI-IA-02']]);
  });

  it("makes POA&M rows of an input's FAIL and WARN results, and actions of every result", async () => {
    const { query } = setup();
    const poam = await query.execute({ query: 'FROM poam SELECT poam_id, status, risk_rating, owner, overdue', inputs: ['/runs/1.json'], now: NOW });
    expect(poam.rows).toEqual([['POAM-KSI-IA-02', 'Open', 'Critical', 'identity-team@agency.example', 'true']]);
    const actions = await query.execute({ query: 'FROM actions WHERE sev IN (Critical, High) SELECT ksi_id, owner, sla', inputs: ['/runs/1.json'] });
    expect(actions.rows).toEqual([['KSI-IA-02', 'identity-team@agency.example', 7]]);
  });

  it("reads the store's latest run without inputs, its tracked POA&M items open and closed, and every run for FROM runs", async () => {
    const { query, process } = setup();
    await process.execute({ input: '/runs/1.json' });
    await process.execute({ input: '/runs/2.json' });
    const latest = await query.execute({ query: 'FROM results ORDER BY status DESC SELECT ksi_id, status', now: NOW });
    expect(latest).toEqual({
      source: 'results',
      from: ['memory run 2'],
      columns: ['ksi_id', 'status'],
      rows: [
        ['KSI-AU-02', 'WARN'],
        ['KSI-IA-02', 'PASS'],
      ],
    });
    const poam = await query.execute({ query: 'FROM poam SELECT poam_id, status, completion_date', now: NOW });
    expect(poam.rows).toEqual([
      ['POAM-KSI-AU-02', 'Open', undefined],
      ['POAM-KSI-IA-02', 'Closed', '2026-11-04'],
    ]);
    const runs = await query.execute({
      query: 'FROM runs WHERE fail > 0 OR warn > 0 ORDER BY seq DESC SELECT seq, as_of, fail, warn, poam_open, poam_closed',
      now: NOW,
    });
    expect(runs).toEqual({
      source: 'runs',
      from: ['memory'],
      columns: ['seq', 'as_of', 'fail', 'warn', 'poam_open', 'poam_closed'],
      rows: [
        [2, '2026-11-04T06:00:00Z', 0, 1, 1, 1],
        [1, '2026-11-01T06:00:00Z', 1, 0, 1, 0],
      ],
    });
  });

  it('refuses an empty store without inputs, and FROM runs with inputs', async () => {
    const { query } = setup();
    await expect(query.execute({ query: 'FROM results' })).rejects.toMatchObject({
      kind: 'not-found',
      code: 'cql-no-runs',
      message: 'the run store at memory holds no runs; pass --input <report> or record a run with svc conmon process',
    });
    await expect(query.execute({ query: 'FROM runs', inputs: ['/runs/1.json'] })).rejects.toMatchObject({ kind: 'usage', code: 'cql-runs-input' });
    await expect(query.execute({ query: 'FROM runs SELECT nope' })).rejects.toMatchObject({ code: 'cql-invalid' });
  });
});
