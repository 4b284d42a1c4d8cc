import type { EvidenceKind } from '../ksi/ksi-result';

/** The SDR schema's `evidenceType` enum (2026-06-24): a test reads it from the schema file and compares. */
export type SdrEvidenceType = 'Log' | 'Report' | 'Screenshot' | 'Configuration' | 'Policy' | 'Procedure' | 'Audit Record';

/** What a tool's machine-based evidence can be: a scanner svc reads declares one (VendorInfo.evidence). */
export type ToolEvidenceType = Extract<SdrEvidenceType, 'Configuration' | 'Report' | 'Log'>;

/** The evidence type each tool declares, by its name in lower case (declaredEvidence). */
export type DeclaredEvidence = ReadonlyMap<string, ToolEvidenceType>;

/** The declared evidence of the tools svc reads (`svc adapter run --list`), by name: what evidenceTypeOf looks up first. */
export function declaredEvidence(tools: readonly { tool: string; evidence: ToolEvidenceType }[]): DeclaredEvidence {
  return new Map(tools.map(({ tool, evidence }) => [tool.toLowerCase(), evidence]));
}

/**
 * What kind of source a tool svc has no adapter for is (DESIGN §12.3), by common words and names in its lower-case
 * name: log sources give `Log`, vulnerability scanners and SAST/DAST `Report`, configuration scanners and benchmarks
 * `Configuration`; the first pattern that matches wins. The scanners svc reads declare theirs (declaredEvidence).
 */
export const EVIDENCE_SOURCES: readonly { pattern: RegExp; type: ToolEvidenceType; kind: string }[] = [
  { pattern: /cloudtrail|sentinel|splunk|syslog|siem|audit log|activity log|\blogs?\b/, type: 'Log', kind: 'log source' },
  { pattern: /tenable|qualys|burp|codeql|semgrep|snyk|dependabot|vulnerab/, type: 'Report', kind: 'vulnerability scanner or SAST/DAST' },
  { pattern: /heimdall|config|benchmark|\bcis\b|stig|posture/, type: 'Configuration', kind: 'configuration scanner' },
];

/**
 * The SDR `evidenceType` of a result: a non-machine result (policies, procedures, training records) is `Policy`; a
 * machine-based one the type its tool declares (`declared`: the tool's name, or the name followed by more words, as a
 * result's own `source` gives it: `OWASP ZAP 2.7.0`, `Trivy Operator`), else by EVIDENCE_SOURCES, else `Report` (a tool svc does not know
 * reports its findings).
 */
export function evidenceTypeOf(tool: string, kind: EvidenceKind, declared: DeclaredEvidence): SdrEvidenceType {
  if (kind === 'non-machine') return 'Policy';
  const name = tool.toLowerCase();
  const own = declared.get(name) ?? [...declared].find(([declaredName]) => name.startsWith(`${declaredName} `))?.[1];
  return own ?? EVIDENCE_SOURCES.find((s) => s.pattern.test(name))?.type ?? 'Report';
}
