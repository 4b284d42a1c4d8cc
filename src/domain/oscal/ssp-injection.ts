import type { HashedResult } from '../assessment/assessment';
import { controlsTouched } from '../artifacts/ssp-narrative';
import { isPlainObject } from '../encoding/json-values';
import type { JsonEdit } from './json-edit';
import { evidenceEntryResource, line, systemName, type Json, type OscalRun } from './oscal-run';
import { byComponent, controlStatement, evidenceLinks } from './system-security-plan';

export interface SspInjection {
  edits: JsonEdit[];
  /** Controls whose implemented-requirement was updated, and those added, in catalog order. */
  updated: string[];
  added: string[];
}

const ROOT = 'system-security-plan';

/**
 * The edits that write a run into an existing SSP (`svc ir ssp-inject`): for each control the run's KSIs touch, the
 * FedRAMP implementation-status prop and a by-component statement on the system's `this-system` component, plus links
 * to the evidence entries in back-matter; a control without an implemented-requirement gets one. Every id svc writes
 * here is a UUIDv5 of the control or KSI alone, so injecting again replaces svc's earlier statements instead of
 * adding more. Nothing else in the document is touched but metadata.last-modified.
 */
export function sspInjection(document: Record<string, unknown>, run: OscalRun): SspInjection {
  const ssp = isPlainObject(document[ROOT]) ? document[ROOT] : {};
  const edits: JsonEdit[] = [];
  const component = thisSystemComponent(ssp, run, edits);
  const implementation = isPlainObject(ssp['control-implementation']) ? ssp['control-implementation'] : undefined;
  const requirements = Array.isArray(implementation?.['implemented-requirements']) ? (implementation['implemented-requirements'] as unknown[]) : undefined;
  const fresh: Json[] = [];
  const updated: string[] = [];
  const resourceUuid = ({ item }: HashedResult) => run.uuid(`ssp-inject:evidence:${item.result.ksi_id}`);
  const touched = controlsTouched(run.results, run.catalog);
  for (const { control, covered } of touched) {
    const statement = controlStatement(run, control, covered);
    const ours = byComponent(statement, component, run.uuid(`ssp-inject:by-component:${control}`));
    const links = evidenceLinks(covered, resourceUuid);
    const index =
      requirements?.findIndex((r) => isPlainObject(r) && typeof r['control-id'] === 'string' && r['control-id'].trim().toLowerCase() === control) ?? -1;
    if (index < 0) {
      fresh.push({
        uuid: run.uuid(`ssp-inject:implemented-requirement:${control}`),
        'control-id': control,
        props: [statement.prop],
        links,
        'by-components': [ours],
      });
      continue;
    }
    updated.push(control);
    const at = [ROOT, 'control-implementation', 'implemented-requirements', index];
    const requirement = (requirements as Record<string, unknown>[])[index];
    upsert(
      edits,
      requirement,
      at,
      'props',
      [statement.prop],
      (p) => p.name === 'implementation-status',
      (p) => ({ ...p, ...statement.prop, ...(statement.remarks ? {} : { remarks: undefined }) }),
    );
    for (const link of links)
      upsert(
        edits,
        requirement,
        at,
        'links',
        [link],
        (l) => l.href === link.href,
        () => link,
      );
    upsert(
      edits,
      requirement,
      at,
      'by-components',
      [ours],
      (b) => b.uuid === ours.uuid,
      () => ours,
    );
  }
  if (fresh.length > 0) {
    if (requirements)
      fresh.forEach((r, i) =>
        edits.push({ path: [ROOT, 'control-implementation', 'implemented-requirements', requirements.length + i], value: r, insert: true }),
      );
    else if (implementation) edits.push({ path: [ROOT, 'control-implementation', 'implemented-requirements'], value: fresh });
    else
      edits.push({
        path: [ROOT, 'control-implementation'],
        value: { description: `Controls evidenced by ${run.context.input.name}.`, 'implemented-requirements': fresh },
      });
  }
  const cited = run.results.filter(({ item }) => (item.definition?.controls.length ?? 0) > 0);
  const resources = cited.map((entry) => evidenceEntryResource(run, entry, resourceUuid(entry), 'inline'));
  const backMatter = isPlainObject(ssp['back-matter']) ? ssp['back-matter'] : undefined;
  if (!backMatter) {
    if (resources.length > 0) edits.push({ path: [ROOT, 'back-matter'], value: { resources } });
  } else {
    for (const resource of resources)
      upsert(
        edits,
        backMatter,
        [ROOT, 'back-matter'],
        'resources',
        [resource],
        (r) => r.uuid === resource.uuid,
        () => resource,
      );
  }
  if (edits.length > 0) edits.push({ path: [ROOT, 'metadata', 'last-modified'], value: run.generatedAt });
  return { edits, updated, added: fresh.map((r) => r['control-id'] as string) };
}

/** The SSP's own `this-system` component, or one svc adds for the statements to belong to. */
function thisSystemComponent(ssp: Record<string, unknown>, run: OscalRun, edits: JsonEdit[]): string {
  const implementation = isPlainObject(ssp['system-implementation']) ? ssp['system-implementation'] : undefined;
  const components = Array.isArray(implementation?.components) ? (implementation.components as unknown[]) : undefined;
  const own = components?.find((c): c is Record<string, unknown> => isPlainObject(c) && c.type === 'this-system' && typeof c.uuid === 'string');
  if (own) return own.uuid as string;
  const uuid = run.uuid('ssp-inject:component:this-system');
  const component = {
    uuid,
    type: 'this-system',
    title: line(systemName(run)),
    description: `The whole of ${systemName(run)}.`,
    status: { state: 'operational' },
  };
  if (components) edits.push({ path: [ROOT, 'system-implementation', 'components', components.length], value: component, insert: true });
  else if (implementation) edits.push({ path: [ROOT, 'system-implementation', 'components'], value: [component] });
  else
    edits.push({
      path: [ROOT, 'system-implementation'],
      value: { users: [{ uuid: run.uuid('ssp-inject:user'), title: 'Control owner' }], components: [component] },
    });
  return uuid;
}

/**
 * In `owner[key]` (an array at `at`): replace the element `matches` finds with `replace(it)`, or append `fresh`'s
 * element; an absent array becomes `fresh`. Members set to undefined are dropped.
 */
function upsert(
  edits: JsonEdit[],
  owner: Record<string, unknown>,
  at: (string | number)[],
  key: string,
  fresh: Json[],
  matches: (element: Record<string, unknown>) => boolean,
  replace: (element: Record<string, unknown>) => Json,
): void {
  const list = owner[key];
  if (!Array.isArray(list)) {
    edits.push({ path: [...at, key], value: fresh });
    return;
  }
  const index = list.findIndex((e) => isPlainObject(e) && matches(e));
  if (index < 0) {
    // Appending more than one element to the same array: each goes after the ones added before it.
    const added = edits.filter((e) => e.insert && e.path.length === at.length + 2 && e.path[at.length] === key && samePrefix(e.path, at)).length;
    edits.push({ path: [...at, key, list.length + added], value: fresh[0], insert: true });
    return;
  }
  const next = Object.fromEntries(Object.entries(replace(list[index] as Record<string, unknown>)).filter(([, v]) => v !== undefined));
  if (JSON.stringify(next) !== JSON.stringify(list[index])) edits.push({ path: [...at, key, index], value: next });
}

function samePrefix(path: (string | number)[], prefix: (string | number)[]): boolean {
  return prefix.every((segment, i) => path[i] === segment);
}
