import { injectable } from 'tsyringe';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { VULNERABILITY_STATES, type VulnerabilityState } from '../../domain/vulnerabilities/lifecycle';
import { listedVulnerability, type ListedVulnerability } from './listed-vulnerability';
import { VulnerabilityRegister, type JudgedGroup, type Register } from './vulnerability-register';

/** What `--status` filters by: a state, or the flags `overdue` and `incident`. */
export const VULN_FILTERS = [...VULNERABILITY_STATES, 'overdue', 'incident'] as const;
export type VulnFilter = (typeof VULN_FILTERS)[number];

export interface ListVulnerabilitiesResult {
  register: Omit<Register, 'groups'>;
  counts: Record<VulnerabilityState, number> & { total: number; overdue: number; incident: number };
  vulnerabilities: ListedVulnerability[];
}

/** `svc vuln list`: the register, judged at `--now`, optionally filtered. */
@injectable()
export class ListVulnerabilities {
  constructor(private readonly register: VulnerabilityRegister) {}

  async execute(input: { class?: Cr26Class; now?: Date; status?: VulnFilter }): Promise<ListVulnerabilitiesResult> {
    const { groups, ...register } = await this.register.judge(input, 'svc vuln list');
    const counts = {
      total: groups.length,
      overdue: 0,
      incident: 0,
      ...Object.fromEntries(VULNERABILITY_STATES.map((s) => [s, 0])),
    } as ListVulnerabilitiesResult['counts'];
    for (const { judgment } of groups) {
      counts[judgment.state] += 1;
      if (judgment.overdue.is) counts.overdue += 1;
      if (judgment.incident.internet || judgment.incident.other) counts.incident += 1;
    }
    const keep = (g: JudgedGroup) =>
      input.status === undefined ||
      (input.status === 'overdue'
        ? g.judgment.overdue.is
        : input.status === 'incident'
          ? g.judgment.incident.internet || g.judgment.incident.other
          : g.judgment.state === input.status);
    return { register, counts, vulnerabilities: groups.filter(keep).map(listedVulnerability) };
  }
}
