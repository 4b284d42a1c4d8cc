import type { ListVulnerabilitiesResult } from '../../application/vulnerabilities/list-vulnerabilities';
import { textTable } from './cql-output';

/** `svc vuln list`'s lines: the register's run and time, a table, the counts. */
export function renderVulnerabilities(r: ListVulnerabilitiesResult): string[] {
  const { register, counts } = r;
  const head = registerLine(register);
  const rows = r.vulnerabilities.map((v) => [
    v.id,
    v.finding_id,
    v.state,
    v.current_n === undefined ? '' : `N${v.current_n}`,
    v.irv === undefined ? '' : v.irv ? 'yes' : 'no',
    v.lev === undefined ? '' : v.lev ? 'yes' : 'no',
    v.next_due ?? '',
    [v.overdue.is ? `overdue: ${v.overdue.reasons.join('; ')}` : '', v.incident ? 'reportable incident' : '', v.kev_due ? `KEV due ${v.kev_due}` : '']
      .filter(Boolean)
      .join('; '),
  ]);
  return [
    head,
    ...(rows.length === 0 ? [] : ['', ...textTable(['ID', 'Finding', 'State', 'N', 'IRV', 'LEV', 'Due', 'Notes'], rows)]),
    '',
    `Groups: ${counts.total} (detected ${counts.detected}, evaluated ${counts.evaluated}, mitigated ${counts.mitigated}, remediated ${counts.remediated}, accepted ${counts.accepted}, false positive ${counts['false-positive']}); overdue ${counts.overdue}; reportable incidents ${counts.incident}`,
  ];
}

/** Which register a command judged: the run, the class, the time and the rules. */
export function registerLine(register: { run?: { seq: number; as_of: string }; class: string; now: string; rules: string }): string {
  return register.run === undefined
    ? `No run recorded: no vulnerability groups (Class ${register.class} at ${register.now})`
    : `Vulnerabilities of run ${register.run.seq} (as of ${register.run.as_of}), Class ${register.class} at ${register.now}, CR26 ${register.rules}`;
}
