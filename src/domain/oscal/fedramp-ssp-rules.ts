import { describe, isPlainObject } from '../encoding/json-values';
import type { BaselineControls, BaselineLevel } from './baseline';
import { jsonPath, type OscalProblem } from './oscal-problem';

/** One FedRAMP SSP rule as `svc oscal validate-ssp` lists it. */
export interface FedrampRule {
  id: string;
  summary: string;
}

/** The roles FedRAMP's SSP template requires, with the title the fix suggests. */
const REQUIRED_ROLES = [
  { id: 'system-owner', title: 'System Owner' },
  { id: 'authorizing-official', title: 'Authorizing Official' },
  { id: 'system-poc-management', title: 'System Management Point of Contact' },
  { id: 'system-poc-technical', title: 'System Technical Point of Contact' },
  { id: 'information-system-security-officer', title: 'Information System Security Officer' },
  { id: 'authorizing-official-poc', title: "Authorizing Official's Point of Contact" },
] as const;

/** Roles FedRAMP wants held by a named individual, not an organization. */
const PERSON_ROLES: readonly string[] = ['system-owner', 'information-system-security-officer'];

const SECURITY_LEVELS: readonly string[] = ['fips-199-low', 'fips-199-moderate', 'fips-199-high'];
const SECURITY_OBJECTIVES = ['confidentiality', 'integrity', 'availability'] as const;
const IMPLEMENTATION_STATUSES: readonly string[] = ['implemented', 'partial', 'planned', 'alternative', 'not-applicable'];
// FedRAMP's registry value was http://fedramp.gov until the rev5 templates moved to https; both are still in use.
const FEDRAMP_ID_TYPES: readonly string[] = ['https://fedramp.gov', 'http://fedramp.gov'];

export const FEDRAMP_SSP_RULES: readonly FedrampRule[] = [
  { id: 'has-system-id', summary: 'system-characteristics.system-ids has a FedRAMP-assigned identifier (identifier-type https://fedramp.gov).' },
  { id: 'has-system-name-short', summary: 'system-characteristics.system-name-short is a non-empty string.' },
  { id: 'has-security-sensitivity-level', summary: 'system-characteristics.security-sensitivity-level is fips-199-low, fips-199-moderate or fips-199-high.' },
  {
    id: 'has-security-impact-level',
    summary: 'security-impact-level rates confidentiality, integrity and availability each fips-199-low, fips-199-moderate or fips-199-high.',
  },
  { id: 'has-authorization-boundary', summary: 'system-characteristics.authorization-boundary has a non-empty description.' },
  ...REQUIRED_ROLES.map((role) => ({ id: `role-defined-${role.id}`, summary: `metadata.roles defines the ${role.id} role (${role.title}).` })),
  { id: 'role-has-responsible-party', summary: 'Each required role that is defined has a metadata.responsible-parties entry naming at least one party.' },
  { id: 'responsible-party-resolves', summary: 'Every party-uuid of metadata.responsible-parties is the uuid of a metadata.parties entry.' },
  { id: 'responsible-party-is-person', summary: 'The system-owner and information-system-security-officer roles are held by parties of type person.' },
  {
    id: 'implementation-status-defined',
    summary: 'Every implemented-requirement states an implementation status (FedRAMP prop or by-component implementation-status).',
  },
  { id: 'implementation-status-allowed', summary: 'Every implementation status is implemented, partial, planned, alternative or not-applicable.' },
  { id: 'implementation-status-has-remarks', summary: 'Every implementation status other than implemented carries non-empty remarks.' },
  { id: 'baseline-control-implemented', summary: 'Every control of the FedRAMP baseline has an implemented-requirement.' },
  { id: 'no-extraneous-control', summary: 'No implemented-requirement is for a control outside the FedRAMP baseline.' },
  { id: 'implemented-requirement-unique', summary: 'No two implemented-requirements are for the same control.' },
];

type Segments = readonly (string | number)[];

const SSP: Segments = ['system-security-plan'];

/**
 * The FedRAMP SSP rules (FEDRAMP_SSP_RULES) over a parsed file `{"system-security-plan": {...}}`, checked against one
 * baseline. Never throws: parts the schema layer already rejects are skipped or read as absent. A document that is not
 * an SSP at all gives no problems here, since every rule would fire and bury the schema layer's one real finding.
 * Problems come in document order: metadata, system-characteristics, control-implementation.
 */
export function checkFedrampSsp(document: unknown, baseline: BaselineControls): OscalProblem[] {
  if (!isPlainObject(document) || !isPlainObject(document['system-security-plan'])) return [];
  const ssp = document['system-security-plan'];
  return [
    ...checkMetadata(objectAt(ssp, 'metadata')),
    ...checkCharacteristics(objectAt(ssp, 'system-characteristics')),
    ...checkImplementation(objectAt(ssp, 'control-implementation'), baseline),
  ];
}

/**
 * The baseline an SSP claims: its security-sensitivity-level (`fips-199-moderate` or bare `moderate`), else the FedRAMP
 * rev5 baseline file its import-profile names; undefined when neither says.
 */
export function baselineOfSsp(document: unknown): BaselineLevel | undefined {
  if (!isPlainObject(document)) return undefined;
  const ssp = objectAt(document, 'system-security-plan');
  const level = objectAt(ssp, 'system-characteristics')['security-sensitivity-level'];
  if (typeof level === 'string') {
    const bare = /^(?:fips-199-)?(low|moderate|high)$/i.exec(level.trim());
    if (bare) return bare[1].toLowerCase() as BaselineLevel;
  }
  const href = objectAt(ssp, 'import-profile').href;
  if (typeof href === 'string') {
    const file =
      /(?:^|[/\\])FedRAMP_rev5_(LOW|MODERATE|HIGH)[-_]baseline(?:_profile|[-_]resolved-profile_catalog(?:-min)?)\.(?:json|xml|ya?ml)(?:$|[?#])/i.exec(
        href.trim(),
      );
    if (file) return file[1].toLowerCase() as BaselineLevel;
  }
  return undefined;
}

function checkMetadata(metadata: Record<string, unknown>): OscalProblem[] {
  const problems: OscalProblem[] = [];
  const at = ['metadata'];
  const roleIds = new Set(objectsIn(metadata.roles).map(({ item }) => item.id));
  for (const role of REQUIRED_ROLES) {
    if (!roleIds.has(role.id)) {
      problems.push(
        problem(
          `role-defined-${role.id}`,
          [...at, 'roles'],
          `no role with id "${role.id}"; add {"id": "${role.id}", "title": "${role.title}"} to metadata.roles`,
        ),
      );
    }
  }

  const parties = new Map<string, Record<string, unknown>>();
  for (const { item } of objectsIn(metadata.parties)) if (typeof item.uuid === 'string') parties.set(item.uuid, item);
  const assignments = objectsIn(metadata['responsible-parties']);
  const staffed = new Set<unknown>();
  for (const { item } of assignments) if (Array.isArray(item['party-uuids']) && item['party-uuids'].length > 0) staffed.add(item['role-id']);
  const required = REQUIRED_ROLES.filter((role) => roleIds.has(role.id) && !staffed.has(role.id));
  for (const role of required) {
    if (!assignments.some(({ item }) => item['role-id'] === role.id)) {
      problems.push(
        problem(
          'role-has-responsible-party',
          [...at, 'responsible-parties'],
          `role "${role.id}" has no responsible party; add {"role-id": "${role.id}", "party-uuids": ["<uuid of a metadata.parties entry>"]} to metadata.responsible-parties`,
        ),
      );
    }
  }

  const reported = new Set<string>();
  for (const { item, index } of assignments) {
    const here = [...at, 'responsible-parties', index];
    const roleId = item['role-id'];
    const unstaffed = required.find((role) => role.id === roleId);
    if (unstaffed && !reported.has(unstaffed.id)) {
      reported.add(unstaffed.id);
      problems.push(
        problem(
          'role-has-responsible-party',
          [...here, 'party-uuids'],
          `role "${unstaffed.id}" names no party: party-uuids is ${shown(item['party-uuids'])}; list the uuid of the metadata.parties entry that holds it`,
        ),
      );
    }
    const uuids = Array.isArray(item['party-uuids']) ? item['party-uuids'] : [];
    uuids.forEach((uuid: unknown, j) => {
      const path = [...here, 'party-uuids', j];
      const party = typeof uuid === 'string' ? parties.get(uuid) : undefined;
      if (!party) {
        problems.push(
          problem(
            'responsible-party-resolves',
            path,
            `party-uuid ${describe(uuid)} is not the uuid of any metadata.parties entry; add that party or correct the uuid`,
          ),
        );
      } else if (typeof roleId === 'string' && PERSON_ROLES.includes(roleId) && party.type !== 'person') {
        const name = typeof party.name === 'string' ? ` ${JSON.stringify(party.name)}` : '';
        problems.push(
          problem(
            'responsible-party-is-person',
            path,
            `party${name} (${JSON.stringify(uuid)}) holds role "${roleId}" but is of type ${shown(party.type)}; FedRAMP requires a named individual: list a party of type "person" here`,
          ),
        );
      }
    });
  }
  return problems;
}

function checkCharacteristics(characteristics: Record<string, unknown>): OscalProblem[] {
  const problems: OscalProblem[] = [];
  const at = ['system-characteristics'];
  const ids = objectsIn(characteristics['system-ids']);
  if (!ids.some(({ item }) => typeof item['identifier-type'] === 'string' && FEDRAMP_ID_TYPES.includes(item['identifier-type'].trim()))) {
    problems.push(
      problem(
        'has-system-id',
        [...at, 'system-ids'],
        `no system id with identifier-type "https://fedramp.gov"; add {"identifier-type": "https://fedramp.gov", "id": "F00000000"} (the FedRAMP application number) to system-characteristics.system-ids`,
      ),
    );
  }

  const short = characteristics['system-name-short'];
  if (typeof short !== 'string' || short.trim() === '') {
    problems.push(
      problem(
        'has-system-name-short',
        [...at, 'system-name-short'],
        `system-name-short is ${shown(short)}; set it to the system's short name or acronym, e.g. "system-name-short": "CES"`,
      ),
    );
  }

  const sensitivity = characteristics['security-sensitivity-level'];
  if (typeof sensitivity !== 'string' || !SECURITY_LEVELS.includes(sensitivity)) {
    problems.push(
      problem(
        'has-security-sensitivity-level',
        [...at, 'security-sensitivity-level'],
        `security-sensitivity-level is ${shown(sensitivity)}; set it to one of ${SECURITY_LEVELS.join(', ')}`,
      ),
    );
  }

  const impact = objectAt(characteristics, 'security-impact-level');
  for (const objective of SECURITY_OBJECTIVES) {
    const key = `security-objective-${objective}`;
    const value = impact[key];
    if (typeof value !== 'string' || !SECURITY_LEVELS.includes(value)) {
      problems.push(
        problem(
          'has-security-impact-level',
          [...at, 'security-impact-level', key],
          `${key} is ${shown(value)}; set security-impact-level.${key} to one of ${SECURITY_LEVELS.join(', ')}`,
        ),
      );
    }
  }

  const boundary = objectAt(characteristics, 'authorization-boundary').description;
  if (typeof boundary !== 'string' || boundary.trim() === '') {
    problems.push(
      problem(
        'has-authorization-boundary',
        [...at, 'authorization-boundary', 'description'],
        `authorization-boundary.description is ${shown(boundary)}; describe what the authorization boundary includes (diagrams go in authorization-boundary.diagrams)`,
      ),
    );
  }
  return problems;
}

function checkImplementation(implementation: Record<string, unknown>, baseline: BaselineControls): OscalProblem[] {
  const problems: OscalProblem[] = [];
  const at = ['control-implementation', 'implemented-requirements'];
  const requirements = objectsIn(implementation['implemented-requirements']);
  const inBaseline = new Set(baseline.controls.map(normalizeControlId));
  const implemented = new Set(
    requirements
      .map(({ item }) => item['control-id'])
      .filter((id) => typeof id === 'string')
      .map(normalizeControlId),
  );
  for (const id of baseline.controls.map(normalizeControlId)) {
    if (!implemented.has(id)) {
      problems.push(
        problem(
          'baseline-control-implemented',
          at,
          `no implemented-requirement for ${id} of ${baseline.title}; add {"uuid": "<new uuid>", "control-id": "${id}"} with its implementation status`,
        ),
      );
    }
  }

  const firstFor = new Map<string, number>();
  for (const { item, index } of requirements) {
    const here = [...at, index];
    const controlId = item['control-id'];
    const label = typeof controlId === 'string' ? shownControl(controlId) : `implemented-requirements[${index}]`;
    const statusProps = objectsIn(item.props).filter(({ item: prop }) => prop.name === 'implementation-status');
    const components = objectsIn(item['by-components']);
    const componentsStated = components.filter(({ item: c }) => isPlainObject(c['implementation-status']) && c['implementation-status'].state !== undefined);
    const partlyStated = statusProps.length === 0 && componentsStated.length > 0;
    if (statusProps.length === 0 && componentsStated.length === 0) {
      problems.push(
        problem(
          'implementation-status-defined',
          here,
          `${label} states no implementation status; add the prop {"name": "implementation-status", "value": "implemented"} (or partial, planned, alternative, not-applicable, with remarks)`,
        ),
      );
    }

    if (typeof controlId === 'string') {
      const id = normalizeControlId(controlId);
      if (!inBaseline.has(id)) {
        problems.push(
          problem(
            'no-extraneous-control',
            [...here, 'control-id'],
            `control ${JSON.stringify(controlId)} is not in ${baseline.title}; remove this implemented-requirement or check the SSP against a baseline that selects it`,
          ),
        );
      }
      const first = firstFor.get(id);
      if (first === undefined) firstFor.set(id, index);
      else
        problems.push(
          problem(
            'implemented-requirement-unique',
            [...here, 'control-id'],
            `second implemented-requirement for ${shownControl(id)} (the first is implemented-requirements[${first}]); merge the two into one`,
          ),
        );
    }

    for (const { item: prop, index: k } of statusProps) {
      problems.push(...checkStatus(prop.value, [prop.remarks, item.remarks], [...here, 'props', k], 'value', label, `the prop's "remarks"`));
    }
    for (const { item: component, index: k } of components) {
      const status = component['implementation-status'];
      const path = [...here, 'by-components', k, 'implementation-status'];
      if (isPlainObject(status) && status.state !== undefined) {
        problems.push(...checkStatus(status.state, [status.remarks, item.remarks], path, 'state', label, 'implementation-status.remarks'));
      } else if (partlyStated) {
        problems.push(
          problem(
            'implementation-status-defined',
            path,
            `by-components[${k}] of ${label} states no implementation status while the others do; add "implementation-status": {"state": "implemented"} (or partial, planned, alternative, not-applicable, with remarks)`,
          ),
        );
      }
    }
  }
  return problems;
}

/** Rules 16 and 17 for one status, whichever form states it; `remarks` are the places an explanation may stand. */
function checkStatus(value: unknown, remarks: readonly unknown[], at: Segments, valueKey: string, label: string, remarksPlace: string): OscalProblem[] {
  if (typeof value !== 'string' || !IMPLEMENTATION_STATUSES.includes(value)) {
    return [
      problem(
        'implementation-status-allowed',
        [...at, valueKey],
        `${label}: implementation status ${shown(value)} is not one of ${IMPLEMENTATION_STATUSES.join(', ')}; use one of those`,
      ),
    ];
  }
  // A value that is not allowed is already reported above; asking remarks for it as well would only add noise.
  if (value !== 'implemented' && !remarks.some((r) => typeof r === 'string' && r.trim() !== '')) {
    return [
      problem(
        'implementation-status-has-remarks',
        [...at, 'remarks'],
        `${label} is "${value}" but has no remarks; say why and what is planned in ${remarksPlace} or the implemented-requirement's "remarks"`,
      ),
    ];
  }
  return [];
}

function shown(value: unknown): string {
  return value === undefined ? 'missing' : describe(value);
}

/** A control id as messages show it: bare when it is a plain id, quoted (so it stays on one line) otherwise. */
function shownControl(id: string): string {
  return /^[A-Za-z0-9.-]+$/.test(id) ? id : JSON.stringify(id);
}

function normalizeControlId(id: string): string {
  return id.trim().toLowerCase();
}

function problem(rule: string, segments: Segments, message: string): OscalProblem {
  return { layer: 'fedramp', rule, path: jsonPath([...SSP, ...segments]), message };
}

/** An object-valued member, or an empty object when it is absent or not an object (the schema layer reports that). */
function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  return isPlainObject(value) ? value : {};
}

/** The object entries of an array member with their indexes; anything else reads as no entries. */
function objectsIn(value: unknown): { item: Record<string, unknown>; index: number }[] {
  if (!Array.isArray(value)) return [];
  const entries: { item: Record<string, unknown>; index: number }[] = [];
  value.forEach((item: unknown, index) => {
    if (isPlainObject(item)) entries.push({ item, index });
  });
  return entries;
}
