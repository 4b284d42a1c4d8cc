import { isPlainObject } from '../encoding/json-values';
import { normalizeTrustCenterUrl, PROVIDER_NAME } from './providers';

/** A provider as a CPO names it: what `svc agency import` adds (authentication comes from the flags). */
export interface ImportedProvider {
  name: string;
  url: string;
  fedrampId?: string;
  /** Where in the file it came from (`$[3]`). */
  at: string;
}

/** A CPO of the file that names no usable trust center, and why. */
export interface SkippedCpo {
  at: string;
  reason: string;
}

/**
 * The CPOs of a file: one CPO document, a JSON array of them, or an object holding one array of them (a marketplace
 * export), in FedRAMP's CPO shape. A CPO is any object with a `serviceIdentification` object.
 */
export function cposOf(document: unknown): { at: string; cpo: Record<string, unknown> }[] {
  const isCpo = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && isPlainObject(v.serviceIdentification);
  if (isCpo(document)) return [{ at: '$', cpo: document }];
  const list = (items: unknown[], at: string) => items.flatMap((cpo, i) => (isCpo(cpo) ? [{ at: `${at}[${i}]`, cpo }] : []));
  if (Array.isArray(document)) return list(document, '$');
  if (isPlainObject(document)) return Object.entries(document).flatMap(([key, value]) => (Array.isArray(value) ? list(value, `$.${key}`) : []));
  return [];
}

/**
 * The trust center's base from the CPO's `serviceProperties.trustCenter.url`: the URL as given, less a trailing
 * `/fedramp/<document>` or `/fedramp` (FedRAMP-compatible trust centers, svc-api among them, serve /fedramp/public).
 */
export function trustCenterBase(url: string): { url: string } | { problem: string } {
  const normalized = normalizeTrustCenterUrl(url.replace(/\?.*$|#.*$/, ''));
  if ('problem' in normalized) return normalized;
  return { url: normalized.url.replace(/\/fedramp(\/[^/]+)?$/, '') };
}

/** A name for the provider from the CPO: its service acronym, else service name, else provider name, made a PROVIDER_NAME. */
export function providerNameOf(identification: Record<string, unknown>): string | undefined {
  for (const key of ['serviceAcronym', 'serviceName', 'providerName']) {
    const value = identification[key];
    if (typeof value !== 'string') continue;
    const name = value
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '')
      .slice(0, 64);
    if (PROVIDER_NAME.test(name)) return name;
  }
  return undefined;
}

/** Each CPO's provider (named uniquely: a second `acme` becomes `acme-2`), or why it was skipped. */
export function providersFromCpos(document: unknown, taken: ReadonlySet<string> = new Set()): { providers: ImportedProvider[]; skipped: SkippedCpo[] } {
  const providers: ImportedProvider[] = [];
  const skipped: SkippedCpo[] = [];
  const used = new Set(taken);
  for (const { at, cpo } of cposOf(document)) {
    const identification = cpo.serviceIdentification as Record<string, unknown>;
    const properties = isPlainObject(cpo.serviceProperties) ? cpo.serviceProperties : {};
    const trustCenter = isPlainObject(properties.trustCenter) ? properties.trustCenter : undefined;
    if (typeof trustCenter?.url !== 'string') {
      skipped.push({ at, reason: 'names no trust center (serviceProperties.trustCenter.url)' });
      continue;
    }
    const base = trustCenterBase(trustCenter.url);
    if ('problem' in base) {
      skipped.push({ at, reason: `serviceProperties.trustCenter.url: ${base.problem}` });
      continue;
    }
    const stem = providerNameOf(identification);
    if (stem === undefined) {
      skipped.push({ at, reason: 'names no service acronym, service name or provider name to call it by' });
      continue;
    }
    let name = stem;
    for (let n = 2; used.has(name); n++) name = `${stem.slice(0, 60)}-${n}`;
    used.add(name);
    const id = identification.fedRampPackageId;
    providers.push({ name, url: base.url, ...(typeof id === 'string' && id.trim() !== '' ? { fedrampId: id.trim() } : {}), at });
  }
  return { providers, skipped };
}
