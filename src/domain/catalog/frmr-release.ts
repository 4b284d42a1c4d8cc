import { InvalidInputError } from '../errors';
import { isPlainObject } from '../encoding/json-values';
import { normalizeControlId } from './ksi-catalog';

/** One official FedRAMP 20x KSI as a release states it. */
export interface OfficialKsi {
  id: string;
  theme: string;
  name: string;
  statement: string;
  controls: string[];
  retired: boolean;
  /** The id this KSI was formerly known as (0.9.x releases link mnemonic ids to numeric ones). */
  fka?: string;
}

export interface OfficialRelease {
  id: string;
  published?: string;
  ksis: OfficialKsi[];
}

/**
 * Reads a FedRAMP machine-readable (FRMR) file of any published layout: the 25.05–25.11 `requirements[]`
 * themes, 25.12A `indicators[]`, and the 0.9.x / consolidated-rules `indicators{}` keyed by mnemonic id.
 */
export function readFrmrRelease(document: unknown, file: string): OfficialRelease {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError(
      'invalid-frmr',
      `${file}: ${path}: ${problem}; pass a FedRAMP FRMR KSI file (FRMR.KSI.*.json, FRMR.documentation.json or fedramp-consolidated-rules.json)`,
    );
  };
  if (!isPlainObject(document)) return fail('$', 'expected a JSON object');
  const info = isPlainObject(document.info) ? document.info : {};
  const themes = document.KSI;
  if (!isPlainObject(themes)) return fail('KSI', 'missing KSI section');
  const ksis: OfficialKsi[] = [];
  for (const [themeKey, themeValue] of Object.entries(themes)) {
    if (!isPlainObject(themeValue)) continue;
    const theme = typeof themeValue.short_name === 'string' ? themeValue.short_name : themeKey;
    const items = themeValue.indicators ?? themeValue.requirements;
    if (Array.isArray(items)) {
      items.forEach((item, i) => ksis.push(readIndicator(item, undefined, theme, `KSI.${themeKey}.indicators[${i}]`, fail)));
    } else if (isPlainObject(items)) {
      for (const [id, item] of Object.entries(items)) ksis.push(readIndicator(item, id, theme, `KSI.${themeKey}.indicators.${id}`, fail));
    } else {
      fail(`KSI.${themeKey}`, 'has neither "indicators" nor "requirements"');
    }
  }
  if (ksis.length === 0) fail('KSI', 'holds no indicators');
  return { id: releaseId(info), published: releaseDate(info), ksis };
}

function readIndicator(item: unknown, key: string | undefined, theme: string, path: string, fail: (p: string, m: string) => never): OfficialKsi {
  if (!isPlainObject(item)) return fail(path, 'expected an object');
  const id = key ?? item.id;
  if (typeof id !== 'string' || !/^KSI-[A-Z]{2,4}-[A-Z0-9]{2,4}$/.test(id)) return fail(`${path}.id`, 'missing or malformed KSI id');
  const statement = typeof item.statement === 'string' ? item.statement : '';
  const name = typeof item.name === 'string' ? item.name.replace(/\s*\([A-Z]{2,5}\)$/, '') : statement.slice(0, 80);
  const controls: string[] = [];
  const rawControls = Array.isArray(item.controls) ? item.controls : [];
  for (const c of rawControls) {
    const raw = typeof c === 'string' ? c : isPlainObject(c) && typeof c.control_id === 'string' ? c.control_id : undefined;
    const id2 = raw === undefined ? undefined : normalizeControlId(raw);
    if (id2 === undefined) return fail(`${path}.controls`, `unreadable control ${JSON.stringify(c)}`);
    if (!controls.includes(id2)) controls.push(id2);
  }
  const ksi: OfficialKsi = { id, theme, name, statement, controls, retired: item.retired === true };
  if (typeof item.fka === 'string') ksi.fka = item.fka;
  return ksi;
}

function releaseId(info: Record<string, unknown>): string {
  const releases = Array.isArray(info.releases) ? info.releases : [];
  const first = isPlainObject(releases[0]) && typeof releases[0].id === 'string' ? releases[0].id : undefined;
  const raw = typeof info.version === 'string' ? info.version : typeof info.current_release === 'string' ? info.current_release : first;
  return (raw ?? 'unknown').split(' ')[0];
}

function releaseDate(info: Record<string, unknown>): string | undefined {
  if (typeof info.last_updated === 'string') return info.last_updated;
  const releases = Array.isArray(info.releases) ? info.releases : [];
  const first = releases[0];
  return isPlainObject(first) && typeof first.published_date === 'string' && !first.published_date.startsWith('1900') ? first.published_date : undefined;
}
