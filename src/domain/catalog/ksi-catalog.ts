import type { Severity } from '../governance/severity';

export interface ControlRef {
  id: string;
  title: string;
}

/** A family's "Policy and Procedures" control. */
export type PolicyRef = ControlRef;

/** Defaults of one NIST SP 800-53 family (DESIGN §4), copied onto each of its KSIs. */
export interface FamilyDefinition {
  id: string;
  title: string;
  policy: PolicyRef;
  severity: Severity;
  frequency_days: number;
  owner: string;
}

/** One built-in KSI: a base control of the FedRAMP rev5 Moderate baseline. */
export interface KsiDefinition {
  id: string;
  title: string;
  family: string;
  /** The base control the KSI stands for (`ac-2`). */
  control: string;
  /** The base control and every enhancement of it the baseline selects, in catalog order. */
  controls: string[];
  policies: PolicyRef[];
  severity: Severity;
  frequency_days: number;
  owner: string;
  /** Official FedRAMP 20x KSIs of the crosswalk's current release whose controls include one of `controls`. */
  official_ksis: string[];
}

export interface CatalogSourceInfo {
  baseline: string;
  file: string;
  sha256: string;
  version: string;
}

/** The checked-in catalog data file (src/domain/catalog/data/ksi-catalog.json). */
export interface CatalogData {
  schema: 'svc.ksi-catalog/v1';
  source: CatalogSourceInfo;
  /** Every control the baseline selects, policies and enhancements included, in catalog order. */
  baseline_controls: ControlRef[];
  families: FamilyDefinition[];
  ksis: KsiDefinition[];
}

/** Read access to the KSI definitions, by id and by control. */
export class KsiCatalog {
  private readonly byId = new Map<string, KsiDefinition>();
  private readonly byControl = new Map<string, KsiDefinition>();
  private readonly controlIndex = new Map<string, { title: string; order: number }>();

  constructor(
    readonly data: CatalogData,
    private readonly extra: readonly KsiDefinition[] = [],
  ) {
    data.baseline_controls.forEach((c, order) => this.controlIndex.set(c.id, { title: c.title, order }));
    for (const ksi of data.ksis) {
      this.byId.set(ksi.id, ksi);
      for (const control of ksi.controls) this.byControl.set(control, ksi);
    }
    for (const ksi of extra) this.byId.set(ksi.id, ksi);
  }

  get(id: string): KsiDefinition | undefined {
    return this.byId.get(id);
  }

  all(): readonly KsiDefinition[] {
    return this.data.ksis;
  }

  /** Definitions beyond the built-in catalog (official KSIs of a FedRAMP release). */
  extraDefinitions(): KsiDefinition[] {
    return [...this.extra];
  }

  family(id: string): FamilyDefinition | undefined {
    return this.data.families.find((f) => f.id === id);
  }

  /** The built-in KSI that covers a control or one of its enhancements (`ia-2.1` → KSI-IA-02). */
  forControl(controlId: string): KsiDefinition | undefined {
    return this.byControl.get(controlId) ?? this.byId.get(ksiIdForControl(baseControl(controlId)));
  }

  /** Title of a baseline control, enhancements included. */
  controlTitle(controlId: string): string | undefined {
    return this.controlIndex.get(controlId)?.title;
  }

  /** Catalog order of controls (ac-2, ac-2.1, ..., ac-10), for stable listings; unknown controls sort last by id. */
  compareControls = (a: string, b: string): number => {
    const x = this.controlIndex.get(a)?.order ?? Infinity;
    const y = this.controlIndex.get(b)?.order ?? Infinity;
    return x !== y ? (x < y ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0;
  };

  /** Catalog extended with definitions for ids outside it (the official KSIs of a FedRAMP release). */
  withDefinitions(extra: readonly KsiDefinition[]): KsiCatalog {
    return new KsiCatalog(this.data, extra);
  }
}

const CONTROL_ID = /^([a-z]{2})-(\d{1,2})(?:\.(\d{1,2}))?$/;

/** `AC-2(1)`, `AC-2 (1)`, `ac-2.1`, `ac-02.01` → `ac-2.1`; undefined when it is not a control id. */
export function normalizeControlId(raw: string): string | undefined {
  const m = CONTROL_ID.exec(
    raw
      .trim()
      .toLowerCase()
      .replace(/\s*\((\d+)\)$/, '.$1'),
  );
  if (!m) return undefined;
  const base = `${m[1]}-${Number(m[2])}`;
  return m[3] === undefined ? base : `${base}.${Number(m[3])}`;
}

const REFERENCE = /^([a-z]{2})[-_ ]?(\d{1,2})(?!\d)(?:\s*\((\d{1,2})\)|[-_.](\d{1,2})(?!\d))?/i;

/**
 * The control a reference written by a tool or a standard names, with statement parts dropped:
 * `AC-2(1)`, `AC-2 (1)`, `AC-2.1`, `ac_2_1`, `ac-2-1-a`, `IA-5(1)(a)` → `ac-2.1` / `ia-5.1`; `CM-6 b`, `CM-6(a)`,
 * `AC-2a`, `ac_2_d_1` → `cm-6` / `ac-2`. Undefined when the text names none (`Rev_4`, `PR.AC-1`).
 */
export function controlFromReference(text: string): string | undefined {
  const m = REFERENCE.exec(text.trim());
  if (!m) return undefined;
  const enhancement = m[3] ?? m[4];
  return normalizeControlId(`${m[1]}-${m[2]}${enhancement === undefined ? '' : `.${enhancement}`}`);
}

/** Each control the references name, once, in the order first named. */
export function controlsFromReferences(references: Iterable<string>): string[] {
  const controls = new Set<string>();
  for (const reference of references) {
    const control = controlFromReference(reference);
    if (control) controls.add(control);
  }
  return [...controls];
}

/** `ia-2.1` → `ia-2`. */
export function baseControl(controlId: string): string {
  const dot = controlId.indexOf('.');
  return dot < 0 ? controlId : controlId.slice(0, dot);
}

/** `ac-2` → `KSI-AC-02` (DESIGN §4). */
export function ksiIdForControl(base: string): string {
  const [family, number] = base.split('-');
  return `KSI-${family.toUpperCase()}-${(number ?? '').padStart(2, '0')}`;
}
