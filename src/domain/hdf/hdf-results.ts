import type { AssessedResult } from '../assessment/assessment';
import type { RunContext } from '../artifacts/run-context';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { isoSeconds } from '../encoding/iso-time';
import { formatDigest } from '../evidence/content-digest';
import type { Severity } from '../governance/severity';
import { poamId } from '../artifacts/poam';
import type { Check } from '../ksi/ksi-result';
import type { Status } from '../ksi/status';

/**
 * A run as a Heimdall Data Format results document (HDF, the InSpec exec JSON that Heimdall opens and MITRE SAF converts
 * scanners into; schema: heimdall2 libs/inspecjs/schemas/exec-json.json). One profile, svc's KSI catalog, with one
 * control per KSI result: its NIST SP 800-53 controls in `tags.nist`, its verdict and checks as `results`.
 */

/** The profile's name: svc's KSI catalog, as an InSpec profile is named. */
export const HDF_PROFILE = 'svc-ksi-catalog';
/** What `platform.name` says: svc wrote the document (as the SAF CLI's conversions say "Heimdall Tools"). */
export const HDF_PLATFORM = 'svc';

/** HDF result statuses (Control_Result_Status). */
export type HdfResultStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface HdfResult {
  status: HdfResultStatus;
  code_desc: string;
  start_time: string;
  message?: string;
  skip_message?: string;
  resource?: string;
}

export interface HdfControl {
  id: string;
  title: string;
  desc: string;
  descriptions: { label: string; data: string }[];
  impact: number;
  refs: never[];
  tags: Record<string, unknown>;
  source_location: Record<string, never>;
  results: HdfResult[];
}

export interface HdfRun {
  tool: { name: string; version: string };
  context: RunContext;
  catalog: KsiCatalog;
  /** Hex RFC 6962 Merkle root of the run's evidence entries. */
  merkleRoot: string;
}

/** What the document holds, as the command reports it. */
export interface HdfCounts {
  controls: number;
  /** Controls of PASS results. */
  passed: number;
  /** Controls of FAIL and WARN results. */
  failed: number;
  /** Controls of KSIs outside the catalog. */
  unmapped: number;
}

/** HDF's impact of a governance severity, at the middle of each band Heimdall reads back (inspecjs convertImpactToSeverity). */
const IMPACT: Record<Severity, number> = { Critical: 0.9, High: 0.7, Medium: 0.5, Low: 0.3 };
/** An impact of at least this is a must (a failure FAILs the KSI); below it, a should (WARN): InSpec's "high" and up. */
const MUST_IMPACT = 0.7;
const SHOULD_IMPACT = 0.5;
/** Heimdall's NIST tag for a control that maps to none (inspecjs). */
const UNMAPPED_NIST = 'UM-1';
/** The 20 control families of NIST SP 800-53 Rev. 5. */
const NIST_FAMILIES = new Set(['AC', 'AT', 'AU', 'CA', 'CM', 'CP', 'IA', 'IR', 'MA', 'MP', 'PE', 'PL', 'PM', 'PS', 'PT', 'RA', 'SA', 'SC', 'SI', 'SR']);
const KSI_OF_CONTROL = /^KSI-([A-Z]{2})-(\d{2})$/;
/** Characters of a result's evidence payload quoted in its message; the whole payload is in the evidence bundle. */
const MAX_EVIDENCE = 1000;
const MAX_MESSAGE = 4000;

/** `ac-2` → `AC-2`, `ac-2.1` → `AC-2 (1)`: NIST SP 800-53 as HDF's `tags.nist` writes it. */
export function hdfNistTag(control: string): string {
  const [base, enhancement] = control.toUpperCase().split('.');
  return enhancement === undefined ? base : `${base} (${enhancement})`;
}

/**
 * The NIST tags of a KSI outside the catalog. An id svc gives a control (`KSI-AC-10` for ac-10, DESIGN §4: an adapter's
 * check on a control the Moderate baseline does not select) names that control; any other id (`KSI-IAM-APM`,
 * `KSI-CNA-01`) names none: Heimdall's UM-1.
 */
export function unmappedNistTags(ksiId: string): string[] {
  const m = KSI_OF_CONTROL.exec(ksiId);
  return m && NIST_FAMILIES.has(m[1]) ? [`${m[1]}-${Number(m[2])}`] : [UNMAPPED_NIST];
}

/**
 * The control's impact: the weight svc gives the result (its governance severity; for a PASS, the KSI's FAIL severity),
 * kept in the band that says svc's status to any HDF reader: a FAIL (a must-check failed) at 0.7 or more, a WARN (a
 * should-check failed) at 0.5 or less.
 */
export function hdfImpact(status: Status, severity: Severity): number {
  const impact = IMPACT[severity];
  if (status === 'FAIL') return Math.max(impact, MUST_IMPACT);
  if (status === 'WARN') return Math.min(impact, SHOULD_IMPACT);
  return impact;
}

/** A check's status as an HDF result status: PASS passed; FAIL and WARN failed; ERROR error; anything else skipped. */
export function hdfResultStatus(status: string): HdfResultStatus {
  const s = status.toUpperCase();
  if (s === 'PASS' || s === 'PASSED') return 'passed';
  if (s === 'FAIL' || s === 'FAILED' || s === 'WARN' || s === 'WARNING') return 'failed';
  return s === 'ERROR' ? 'error' : 'skipped';
}

/**
 * Writes the document a piece at a time, so a run of any size streams to its file: `head()`, then `control()` for each
 * result in order, then `tail()` with the statistics and groups gathered on the way.
 */
export class HdfResults {
  private readonly counts: HdfCounts = { controls: 0, passed: 0, failed: 0, unmapped: 0 };
  private readonly groups = new Map<string, string[]>();
  private earliest = Infinity;
  private latest = -Infinity;

  constructor(private readonly run: HdfRun) {}

  get totals(): HdfCounts {
    return { ...this.counts };
  }

  head(): string {
    const { tool, context, catalog } = this.run;
    const source = catalog.data.source;
    const platform = { name: HDF_PLATFORM, release: tool.version, target_id: context.source?.tenant ?? context.input.name };
    const profile = {
      name: HDF_PROFILE,
      title: `${tool.name} KSI results: ${context.input.name}`,
      version: source.version,
      sha256: source.sha256,
      maintainer: `${tool.name} ${tool.version}`,
      summary: `FedRAMP 20x KSI results of ${context.input.name} (${formatDigest(context.input.sha256)}), one control per KSI of ${tool.name}'s catalog of the ${source.baseline}`,
      license: null,
      copyright: null,
      supports: [],
      attributes: [],
      depends: [],
      status: 'loaded',
    };
    const text = JSON.stringify(profile);
    return `{"platform":${JSON.stringify(platform)},\n"profiles":[${text.slice(0, -1)},"controls":[\n`;
  }

  /** The control of one result; `hash` is the hex content hash of its evidence entry. */
  control(item: AssessedResult, hash: string): string {
    const separator = this.counts.controls === 0 ? '' : ',\n';
    return separator + JSON.stringify(this.build(item, hash));
  }

  tail(): string {
    const { tool, context, catalog, merkleRoot } = this.run;
    // Families in id order, KSIs outside the catalog last.
    const ids = [...this.groups.keys()].sort((a, b) => Number(a === 'UNMAPPED') - Number(b === 'UNMAPPED') || (a < b ? -1 : a > b ? 1 : 0));
    const groups = ids.map((id) => ({
      id,
      title: id === 'UNMAPPED' ? 'KSIs outside the catalog' : (catalog.family(id)?.title ?? id),
      controls: this.groups.get(id),
    }));
    const duration = this.latest >= this.earliest ? (this.latest - this.earliest) / 1000 : 0;
    const statistics = { duration, controls: { passed: { total: this.counts.passed }, failed: { total: this.counts.failed }, skipped: { total: 0 } } };
    const passthrough = {
      auxiliary_data: [
        {
          name: tool.name,
          data: {
            input: { name: context.input.name, sha256: formatDigest(context.input.sha256) },
            merkle_root: formatDigest(merkleRoot),
            ...(context.source ? { source: context.source } : {}),
            ...(context.generatedAt ? { generated_at: context.generatedAt } : {}),
            catalog: catalog.data.source,
          },
        },
      ],
    };
    return `\n],"groups":${JSON.stringify(groups)}}],\n"statistics":${JSON.stringify(statistics)},\n"version":${JSON.stringify(tool.version)},\n"passthrough":${JSON.stringify(passthrough)}}\n`;
  }

  private build({ result, definition, action }: AssessedResult, hash: string): HdfControl {
    const { context, tool } = this.run;
    const start = result.observed_at ?? context.generatedAt ?? isoSeconds(context.runAt);
    const time = Date.parse(start);
    if (Number.isFinite(time)) {
      this.earliest = Math.min(this.earliest, time);
      this.latest = Math.max(this.latest, time);
    }
    this.counts.controls += 1;
    this.counts[result.status === 'PASS' ? 'passed' : 'failed'] += 1;
    if (!definition) this.counts.unmapped += 1;
    const group = definition?.family ?? 'UNMAPPED';
    const members = this.groups.get(group) ?? [];
    members.push(result.ksi_id);
    this.groups.set(group, members);

    const title = result.title ?? definition?.title ?? result.ksi_id;
    const weight = result.status === 'PASS' && definition ? definition.severity : action.severity;
    const nist = definition ? definition.controls.map(hdfNistTag) : unmappedNistTags(result.ksi_id);
    const desc = definition
      ? `${result.ksi_id} ${definition.title}: evidences NIST SP 800-53 ${nist.join(', ')}${definition.policies.length > 0 ? `; policy ${definition.policies.map((p) => `${hdfNistTag(p.id)} ${p.title}`).join(', ')}` : ''}.`
      : `${result.ksi_id} is not in ${tool.name}'s KSI catalog (${this.run.catalog.data.source.baseline}): ${nist[0] === UNMAPPED_NIST ? `it names no NIST SP 800-53 control (Heimdall's ${UNMAPPED_NIST})` : `its id names NIST SP 800-53 ${nist[0]}`}.`;
    const evidence = formatDigest(hash);
    const verdict: HdfResult = {
      status: result.status === 'PASS' ? 'passed' : 'failed',
      code_desc: `${result.ksi_id} is ${result.status} (evidence ${evidence})`,
      start_time: start,
      ...messageOf(result.details, result.evidence),
      ...(result.source ? { resource: result.source } : {}),
    };
    return {
      id: result.ksi_id,
      title,
      desc,
      descriptions: [
        { label: 'default', data: desc },
        ...(action.action === 'REMEDIATE'
          ? [
              {
                label: 'fix',
                data: `${action.action} within ${action.sla_days} days (${action.severity}), owner ${action.owner}; POA&M item ${poamId(result.ksi_id)}.`,
              },
            ]
          : []),
      ],
      impact: hdfImpact(result.status, weight),
      refs: [],
      tags: {
        nist,
        severity: weight.toLowerCase(),
        ksi_status: result.status,
        evidence_sha256: evidence,
        action: action.action,
        owner: action.owner,
        sla_days: action.sla_days,
        ...(definition && definition.official_ksis.length > 0 ? { official_ksis: definition.official_ksis } : {}),
      },
      source_location: {},
      results: [verdict, ...(result.checks ?? []).map((check) => checkResult(check, start))],
    };
  }
}

function checkResult(check: Check, start: string): HdfResult {
  const status = hdfResultStatus(check.status);
  const resource = typeof check.resource === 'string' && check.resource !== '' ? check.resource : undefined;
  const details = typeof check.details === 'string' && check.details !== '' ? clip(check.details, MAX_MESSAGE) : undefined;
  const said = status === 'skipped' ? { skip_message: details ? `${check.status}: ${details}` : check.status } : details ? { message: details } : {};
  return {
    status,
    code_desc: `Check ${check.id}${resource ? ` on ${resource}` : ''}: ${check.status}`,
    start_time: start,
    ...said,
    ...(resource ? { resource } : {}),
  };
}

/** The result's details and a quotation of its evidence payload, bounded. */
function messageOf(details: string | undefined, evidence: Record<string, unknown> | undefined): { message?: string } {
  const quoted = evidence === undefined ? undefined : clip(JSON.stringify(evidence), MAX_EVIDENCE);
  const parts = [details === undefined ? undefined : clip(details, MAX_MESSAGE), quoted === undefined ? undefined : `Evidence: ${quoted}`].filter(
    (p): p is string => p !== undefined && p !== '',
  );
  return parts.length > 0 ? { message: parts.join('\n') } : {};
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
