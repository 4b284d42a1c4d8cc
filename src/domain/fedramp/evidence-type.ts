import type { EvidenceKind } from '../ksi/ksi-result';

/** The SDR schema's `evidenceType` enum (2026-06-24): a test reads it from the schema file and compares. */
export type SdrEvidenceType = 'Log' | 'Report' | 'Screenshot' | 'Configuration' | 'Policy' | 'Procedure' | 'Audit Record';

/**
 * What kind of source each tool svc reads is (DESIGN §12.3): configuration scanners give `Configuration`,
 * vulnerability scanners and SAST/DAST give `Report`, log sources give `Log`. Matched on the tool's name, lower case,
 * as the adapters write it in `source.tool` (and as other tools commonly name themselves); the first pattern that
 * matches wins.
 */
export const EVIDENCE_SOURCES: readonly { pattern: RegExp; type: SdrEvidenceType; kind: string }[] = [
  { pattern: /cloudtrail|sentinel|splunk|syslog|siem|audit log|activity log|\blogs?\b/, type: 'Log', kind: 'log source' },
  { pattern: /trivy|grype|nessus|tenable|qualys|zap|burp|sarif|codeql|semgrep|snyk|dependabot|vulnerab/, type: 'Report', kind: 'vulnerability scanner or SAST/DAST' },
  {
    pattern: /scubagear|prowler|security ?hub|azure policy|defender|openscap|kubescape|inspec|heimdall|scoutsuite|checkov|config|benchmark|\bcis\b|stig|posture/,
    type: 'Configuration',
    kind: 'configuration scanner',
  },
];

/**
 * The SDR `evidenceType` of a result: a non-machine result (policies, procedures, training records) is `Policy`; a
 * machine-based one by its tool (EVIDENCE_SOURCES), else `Report` (a tool svc does not know reports its findings).
 */
export function evidenceTypeOf(tool: string, kind: EvidenceKind): SdrEvidenceType {
  if (kind === 'non-machine') return 'Policy';
  const name = tool.toLowerCase();
  return EVIDENCE_SOURCES.find((s) => s.pattern.test(name))?.type ?? 'Report';
}
