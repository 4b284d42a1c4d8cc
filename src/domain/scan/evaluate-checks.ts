import { InvalidInputError } from '../errors';
import { KSI_ID_HINT, KSI_ID_PATTERN, type KsiResult } from '../ksi/ksi-result';
import { describe, isPlainObject } from '../encoding/json-values';
import type { Status } from '../ksi/status';
import { ksiResult, ksiStatus, type KsiCheck } from './ksi-from-checks';
import type { CheckOutcome } from './scan';

/** `svc ksi evaluate` input: one row per check a tool without an adapter ran. */
export interface CheckRow {
  ksi_id: string;
  check_id: string;
  status: 'pass' | 'fail' | 'error' | 'manual';
  criticality: 'must' | 'should';
  details?: string;
}

const ROW_STATUS: Record<CheckRow['status'], CheckOutcome> = { pass: 'pass', fail: 'fail', error: 'error', manual: 'manual' };

export interface EvaluatedChecks {
  results: KsiResult[];
  /** KSIs whose checks were all manual. */
  not_assessed: string[];
  statuses: Record<Status, number>;
}

/** Checks the rows (naming the file, the row and the fix) and gives each KSI the status its checks give it. */
export function evaluateCheckRows(document: unknown, file: string): EvaluatedChecks {
  const fail = (path: string, problem: string, fix: string): never => {
    throw new InvalidInputError('invalid-checks', `${file}: ${path}: ${problem}; ${fix}`);
  };
  if (!Array.isArray(document))
    return fail('$', `expected an array of check rows, got ${describe(document)}`, 'write [{"ksi_id", "check_id", "status", "criticality"}, ...]');
  const byKsi = new Map<string, KsiCheck[]>();
  document.forEach((row: unknown, i) => {
    if (!isPlainObject(row))
      fail(`[${i}]`, `expected an object, got ${describe(row)}`, 'write {"ksi_id": "KSI-AC-02", "check_id": "...", "status": "pass", "criticality": "must"}');
    const r = row as Record<string, unknown>;
    if (typeof r.ksi_id !== 'string' || !KSI_ID_PATTERN.test(r.ksi_id)) fail(`[${i}].ksi_id`, `${describe(r.ksi_id)} is not a KSI id`, KSI_ID_HINT);
    if (typeof r.check_id !== 'string' || r.check_id === '')
      fail(`[${i}].check_id`, `expected a non-empty string, got ${describe(r.check_id)}`, 'name the check');
    if (typeof r.status !== 'string' || !(r.status in ROW_STATUS))
      fail(`[${i}].status`, `${describe(r.status)} is not a check status`, 'use pass, fail, error or manual');
    if (r.criticality !== 'must' && r.criticality !== 'should')
      fail(`[${i}].criticality`, `${describe(r.criticality)} is not a criticality`, 'use must or should');
    if (r.details !== undefined && typeof r.details !== 'string')
      fail(`[${i}].details`, `expected a string, got ${describe(r.details)}`, 'write details as a string or leave them out');
    const ksi = r.ksi_id as string;
    const list = byKsi.get(ksi) ?? [];
    list.push({
      id: r.check_id as string,
      outcome: ROW_STATUS[r.status as CheckRow['status']],
      criticality: r.criticality as 'must' | 'should',
      ...(r.details ? { details: r.details as string } : {}),
    });
    byKsi.set(ksi, list);
  });
  const results: KsiResult[] = [];
  const notAssessed: string[] = [];
  const statuses: Record<Status, number> = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const ksi of [...byKsi.keys()].sort()) {
    const checks = byKsi.get(ksi) ?? [];
    const status = ksiStatus(checks);
    if (!status) notAssessed.push(ksi);
    else {
      statuses[status] += 1;
      results.push(ksiResult(ksi, status, checks, ''));
    }
  }
  return { results, not_assessed: notAssessed, statuses };
}
