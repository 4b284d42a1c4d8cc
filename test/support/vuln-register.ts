import type { SvcRun } from './run-svc';

/** A group of `svc vuln list --json` as the multi-scanner tests compare registers: the finding, who sees it where, its state. */
export interface RegisterGroup {
  finding_id: string;
  sources: string[];
  resources: string[];
  state: string;
}

/** The register `svc vuln list --json --now <now>` gives through `run`, each group cut to RegisterGroup. */
export function registerAt(run: (args: string[]) => SvcRun, now: string): RegisterGroup[] {
  return (JSON.parse(run(['vuln', 'list', '--json', '--now', now]).stdout) as RegisterGroup[]).map(({ finding_id, sources, resources, state }) => ({
    finding_id,
    sources,
    resources,
    state,
  }));
}
