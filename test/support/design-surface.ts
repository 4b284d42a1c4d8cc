/**
 * The public surface DESIGN fixes, written out from /work/shared/DESIGN.md so that a test fails when the
 * built CLI or the OpenAPI document gains or loses anything.
 */

/**
 * DESIGN §6: the 14 command groups and their 66 commands, in DESIGN's order: SPEC's 11 groups and 44 commands,
 * the six `fedramp` commands of section 12 the CR26 package issue brings, the three `vuln` commands of the VER issue,
 * `fedramp ocr`, `scn` and `incident` of the ongoing-certification issue, `generate hdf` of the ecosystem issue (§13)
 * and the nine `agency` commands of the agency side (§14).
 */
export const DESIGN_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  ir: [
    'baseline-transform',
    'auditor-bundle',
    'diff',
    'generate-sar',
    'evidence-bundle',
    'poam-export',
    'governance-report',
    'drift-detect',
    'freshness',
    'freshness-schedule',
    'dashboard',
    'ssp-report',
    'ssp-inject',
    'validate',
  ],
  adapter: ['run-baseline', 'run'],
  canon: ['check'],
  cql: ['query'],
  ksi: ['evaluate', 'list'],
  conmon: ['process', 'export-oa', 'dashboard'],
  evidence: ['build', 'graph'],
  orchestrator: ['list', 'dispatch', 'schedule'],
  oscal: ['generate', 'validate', 'validate-ssp'],
  substrate: ['walk', 'drift'],
  generate: ['hdf', 'ssp', 'docs', 'docx', 'pptx', 'sbom', 'poam', 'crm', 'inventory', 'sar', 'sap', 'site'],
  fedramp: ['rules', 'sdr', 'cpo', 'ocr', 'scn', 'incident', 'validate', 'readiness', 'package'],
  vuln: ['list', 'evaluate', 'report'],
  agency: ['add', 'import', 'pull', 'status', 'diff', 'review', 'poam', 'notice', 'report'],
};

/** The 66 command ids as oclif writes them in oclif.manifest.json (`topic:command`). */
export const DESIGN_COMMAND_IDS: readonly string[] = Object.entries(DESIGN_COMMANDS).flatMap(([topic, commands]) => commands.map((c) => `${topic}:${c}`));

/**
 * DESIGN §9: the 30 route handlers, as `<module tag> <METHOD> <OpenAPI path>`: SPEC's 17 in five modules and the
 * trust center's 13 (§12.7).
 */
export const DESIGN_ROUTES: readonly string[] = [
  'health GET /health',
  'health GET /health/ready',
  'trust GET /fedramp/public',
  'trust GET /fedramp/cpo',
  'trust GET /fedramp/sdr',
  'trust GET /fedramp/ocr',
  'trust GET /fedramp/vdr',
  'trust GET /fedramp/avi',
  'trust GET /fedramp/history',
  'trust GET /fedramp/scn',
  'trust GET /fedramp/metrics',
  'trust GET /fedramp/incidents',
  'trust GET /fedramp/snapshots',
  'trust GET /fedramp/access',
  'trust GET /fedramp/evidence/{sha256}',
  'auditor GET /auditor/evidence',
  'auditor GET /auditor/findings',
  'auditor GET /auditor/poam',
  'auditor GET /auditor/manifest',
  'auditor GET /auditor/oscal/sar',
  'auditor GET /auditor/oscal/ssp',
  'auditor GET /auditor/oscal/poam',
  'auditor GET /auditor/oscal/sap',
  'auditor GET /auditor/graph/{control_id}',
  'survey POST /survey/run',
  'survey POST /survey/findings',
  'orgpath POST /orgpath/assign',
  'orgpath GET /orgpath/assignments',
  'boundary POST /boundary/run',
  'boundary GET /boundary/gaps',
];

/** Every operation of an OpenAPI document as `<first tag> <METHOD> <path>`. */
export function openApiRoutes(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => `${(op as { tags: string[] }).tags[0]} ${method.toUpperCase()} ${path}`),
  );
}
