import { controlsFromReferences } from '../../../domain/catalog/ksi-catalog';
import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import type { RawInput } from '../raw-input';
import { entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'Azure Policy';

/**
 * `complianceState` of a policy state. `Unknown` is what the `manual` effect reports until someone attests,
 * `Conflict` an assignment whose policies contradict each other (no verdict could be reached), `NotStarted`
 * a resource not evaluated yet.
 */
const STATES: Record<string, CheckOutcome> = {
  Compliant: 'pass',
  NonCompliant: 'fail',
  Exempt: 'omitted',
  Conflict: 'error',
  Unknown: 'manual',
  NotStarted: 'not-applicable',
};

/**
 * Initiative groups that are NIST SP 800-53 controls: the built-in "NIST SP 800-53 Rev. 5" (and Rev. 4)
 * initiatives write `NIST_SP_800-53_R5_AC-2(1)`, "FedRAMP Moderate"/"High" `FedRAMP_Moderate_R4_AC-2`.
 */
const NIST_GROUP = /^(?:NIST_SP_800-53_R\d|FedRAMP_(?:Low|Moderate|High)_R\d)_(.+)$/i;

/** A policy assigned outside the NIST/FedRAMP initiatives still checks a resource's configuration. */
const DEFAULT_CONTROLS = ['cm-6'];

/**
 * Azure Policy compliance: policy states from Policy Insights (`policyStates/latest/queryResults`), as the
 * REST body `{"value": [...]}`, the REST API's documented example wrapper (`responses."200".body`), the bare
 * array `az policy state list` prints, or Azure Resource Graph rows (`policyresources`, fields under
 * `properties`, bare or under `data` as `az graph query` prints them).
 */
export const azurePolicy: VendorParser = {
  info: {
    vendor: 'azure-policy',
    tool: TOOL,
    formats: 'policy states JSON (REST queryResults, az policy state list, Resource Graph policyresources)',
    mapping: 'NIST SP 800-53 / FedRAMP initiative groups (policyDefinitionGroupNames), else cm-6',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => /"policyAssignmentId"\s*:/i.test(head) && /"(complianceState|isCompliant)"\s*:/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const { rows, path } = statesOf(input, await input.json());
    const checks: ScanCheck[] = [];
    const subscriptions = new Set<string>();
    let latest: string | undefined;
    rows.forEach((row, i) => {
      const at = `${path}[${i}]`;
      if (!isPlainObject(row)) throw shapeError(input, TOOL, at, 'expected a policy state object');
      // Resource Graph rows keep the policy state under `properties`, the subscription beside it.
      const state = isPlainObject(row.properties) ? { ...row, ...row.properties } : row;
      checks.push(stateCheck(input, state, isPlainObject(row.properties) ? `${at}.properties` : at));
      if (typeof state.subscriptionId === 'string' && state.subscriptionId !== '') subscriptions.add(state.subscriptionId);
      const time = isoTime(state.timestamp);
      if (time && (latest === undefined || Date.parse(time) > Date.parse(latest))) latest = time;
    });
    return {
      vendor: 'azure-policy',
      tool: TOOL,
      ...(subscriptions.size > 0 ? { tenant: [...subscriptions].join(', ') } : {}),
      ...(latest ? { observed_at: latest } : {}),
      mapping: azurePolicy.info.mapping,
      checks,
    };
  },
};

function statesOf(input: RawInput, document: unknown): { rows: unknown[]; path: string } {
  if (Array.isArray(document)) return { rows: document, path: '' };
  if (isPlainObject(document)) {
    if (Array.isArray(document.value)) return { rows: document.value, path: 'value' };
    if (Array.isArray(document.data)) return { rows: document.data, path: 'data' };
    const responses = isPlainObject(document.responses) ? document.responses['200'] : undefined;
    const body = isPlainObject(responses) ? responses.body : undefined;
    if (isPlainObject(body) && Array.isArray(body.value)) return { rows: body.value, path: 'responses.200.body.value' };
  }
  throw shapeError(input, TOOL, 'value', 'missing; expected policy states as {"value": [...]}, an array, or Resource Graph rows');
}

function stateCheck(input: RawInput, state: Record<string, unknown>, at: string): ScanCheck {
  const definition = typeof state.policyDefinitionId === 'string' ? state.policyDefinitionId : '';
  const id =
    typeof state.policyDefinitionName === 'string' && state.policyDefinitionName !== ''
      ? state.policyDefinitionName
      : definition.slice(definition.lastIndexOf('/') + 1);
  if (id === '') throw shapeError(input, TOOL, `${at}.policyDefinitionId`, 'missing');
  const outcome = outcomeOf(input, state, at);
  const controls = groupControls(state.policyDefinitionGroupNames);
  const reference = state.policyDefinitionReferenceId;
  const details = [
    typeof state.complianceState === 'string' ? state.complianceState : undefined,
    typeof state.policyDefinitionAction === 'string' ? `effect ${state.policyDefinitionAction}` : undefined,
    typeof state.policyAssignmentName === 'string' ? `assignment ${state.policyAssignmentName}` : undefined,
  ].filter(Boolean);
  return {
    id,
    outcome,
    // Policy definitions have no severity: one that evidences a NIST/FedRAMP baseline control is a must.
    criticality: controls.length > 0 ? 'must' : 'should',
    controls: controls.length > 0 ? controls : DEFAULT_CONTROLS,
    ...(typeof reference === 'string' && reference !== '' ? { title: reference } : {}),
    ...(typeof state.resourceId === 'string' && state.resourceId !== '' ? { resource: state.resourceId } : {}),
    ...(details.length > 0 ? { details: details.join('; ').slice(0, 300) } : {}),
  };
}

/** `complianceState`, or the boolean `isCompliant` of API versions before 2019-10-01. */
function outcomeOf(input: RawInput, state: Record<string, unknown>, at: string): CheckOutcome {
  if (typeof state.complianceState === 'string') {
    const outcome = entry(STATES, state.complianceState);
    if (!outcome)
      throw shapeError(
        input,
        TOOL,
        `${at}.complianceState`,
        `"${state.complianceState.slice(0, 40)}" is not a compliance state (${Object.keys(STATES).join(', ')})`,
      );
    return outcome;
  }
  if (typeof state.isCompliant === 'boolean') return state.isCompliant ? 'pass' : 'fail';
  throw shapeError(input, TOOL, `${at}.complianceState`, 'missing (and no isCompliant)');
}

/** `NIST_SP_800-53_R5_AC-2(1)` → `ac-2.1`; `FedRAMP_High_R4_CM-6` → `cm-6`; other groups name no control. */
function groupControls(groups: unknown): string[] {
  if (!Array.isArray(groups)) return [];
  const names = groups.map((group) => (typeof group === 'string' ? NIST_GROUP.exec(group.trim())?.[1] : undefined));
  return controlsFromReferences(names.filter((n): n is string => n !== undefined));
}
