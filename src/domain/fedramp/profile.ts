import { FIRST_DAY, isCalendarDay, LAST_DAY } from '../encoding/iso-time';
import { InvalidInputError, UsageError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';
import { CR26_CLASSES, type Cr26Class } from './cr26-rules';

/** A FedRAMP certification type: the offering follows the 20x or the Rev5 process. */
export type FedrampType = '20x' | 'rev5';
/** A certification path: FedRAMP's program, or an agency's sponsorship. */
export type FedrampPath = 'program' | 'agency';
/** Where the offering stands: applying for a certification, or holding one. */
export type FedrampStatus = 'applying' | 'certified';

export const FEDRAMP_TYPES: readonly FedrampType[] = ['20x', 'rev5'];
export const FEDRAMP_PATHS: readonly FedrampPath[] = ['program', 'agency'];
export const FEDRAMP_STATUSES: readonly FedrampStatus[] = ['applying', 'certified'];

/** The official who is accountable for the offering (CPO-CSO-MTD). */
export interface AccountableOfficial {
  name: string;
  title: string;
  email: string;
}

/** An agency that uses the offering: who it is, for the trust center's role mapping and incident reports. */
export interface FedrampAgency {
  name: string;
  realms: string[];
  issuers: string[];
  domains: string[];
}

/**
 * The offering's profile, the `fedramp` section of svc.config.json (DESIGN §12.1): every key optional here, since
 * each command asks only for the keys it uses (`requireProfileKeys`). File paths are resolved against the config
 * file's directory by the reader.
 */
export interface FedrampProfile {
  type?: FedrampType;
  class?: Cr26Class;
  path?: FedrampPath;
  status?: FedrampStatus;
  /** FedRAMP's id of the offering (a placeholder until FedRAMP assigns one, CDS-CSO-FID). */
  fedramp_id?: string;
  /** The Certification Package Overview's URI, which every document carries. */
  package_uri?: string;
  evidence_base_uri?: string;
  accountable_official?: AccountableOfficial;
  /** An object in the CPO schema's own field names, which svc completes. */
  cpo?: Record<string, unknown>;
  /** A file: the provider's Markdown statement per rule and per KSI. */
  statements?: string;
  /** A file: the assessor's summary (CPO-CSO-OSA). */
  assessor_summary?: string;
  /** The date of the next assessment, YYYY-MM-DD: where a grace period runs until it. */
  next_assessment?: string;
  agencies?: FedrampAgency[];
  /** Planned changes to the certification data the OCR lists beside the recorded SCNs (CCM-OCR-AVL). */
  planned_changes?: string[];
  /** Updated recommendations or best practices the OCR carries (CCM-OCR-AVL). */
  recommendations?: string[];
  /** The advisors of the offering, by name: the CPO's `advisors` where its schema declares them (CPO 0.1.6 on). */
  advisors?: string[];
}

/** The profile's keys, in DESIGN §12.1's order. */
export const FEDRAMP_PROFILE_KEYS = [
  'type',
  'class',
  'path',
  'status',
  'fedramp_id',
  'package_uri',
  'evidence_base_uri',
  'accountable_official',
  'cpo',
  'statements',
  'assessor_summary',
  'next_assessment',
  'agencies',
  'planned_changes',
  'recommendations',
  'advisors',
] as const satisfies readonly (keyof FedrampProfile)[];

export type FedrampProfileKey = (typeof FEDRAMP_PROFILE_KEYS)[number];

/** The profile as configured, with the file it came from (`svc.config.json` in the working directory when there is none). */
export interface ConfiguredFedrampProfile {
  file: string;
  profile: FedrampProfile;
}

/** What to write for each key: the fix a one-line error names. */
const WRITE: Record<FedrampProfileKey, string> = {
  type: 'write "20x" or "rev5"',
  class: 'write A, B, C or D',
  path: 'write "program" or "agency"',
  status: 'write "applying" or "certified"',
  fedramp_id: 'write the FedRAMP id of the offering (a placeholder until FedRAMP assigns one)',
  package_uri: 'write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"',
  evidence_base_uri: 'write the URI evidence links start with, such as "https://trust.example.com/fedramp" (links are <uri>/evidence/<sha256>)',
  accountable_official: 'write {"name", "title", "email"} of the accountable official',
  cpo: 'write an object in the CPO schema\'s field names ("serviceIdentification", ...)',
  statements: 'write the path of the Markdown file of provider statements',
  assessor_summary: "write the path of the assessor's summary file",
  next_assessment: 'write the date of the next assessment as YYYY-MM-DD',
  agencies: 'write a list of {"name", "realms", "issuers", "domains"}',
  planned_changes: 'write a list of one-line summaries of the changes planned for the next 3 months',
  recommendations: 'write a list of one-line recommendations or best practices for agencies',
  advisors: "write a list of the advisors' names",
};

const MAILBOX = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What a URI of RFC 3986 is made of: printable ASCII, no space (anything else percent-encoded). */
const URI_CHARACTERS = /^[!-~]+$/;
/** The hosts a plain-http URL may name: the trust center tried on this machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a profile URL (`package_uri`, `evidence_base_uri`) is not one svc publishes, or undefined when it is: every CR26
 * document carries it and agencies follow it, so it must be an absolute https URL (http only for localhost, 127.0.0.1
 * or [::1], a trust center tried locally) with a host, in RFC 3986's characters, without credentials (they would be
 * published in every document), a query or a fragment (evidence links are `<evidence_base_uri>/evidence/<sha256>`, and
 * the AVI's is resolved against the package URI). `javascript:`, `data:`, `file:` and relative URLs are refused.
 */
export function publicUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'is not a URL';
  if (!URI_CHARACTERS.test(value)) return 'holds a space, a control or a non-ASCII character, which a URL writes percent-encoded';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'https' && !(scheme === 'http' && LOOPBACK.has(url.hostname))) {
    return scheme === 'http' ? 'is a plain-http URL, which only localhost may use; serve it over https' : `is a ${scheme}: URL, not an https one`;
  }
  // The WHATWG parser reads `https:host` and `https:\\host` as `https://host/`; an agency's tool may not.
  if (url.hostname === '' || !/^[a-z]+:\/\/[^/\\]/i.test(value) || value.includes('\\')) return 'is not written as an absolute URL, https://host/path';
  if (url.username !== '' || url.password !== '') return 'holds credentials (user:password@), which every document would publish';
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(value)) return 'has a query or fragment (? or #); write the URL without it';
  return undefined;
}

/** `value` as a Certification Class (`b` reads as B); undefined when it is none. */
export function parseCr26Class(value: string): Cr26Class | undefined {
  return CR26_CLASSES.find((c) => c === value.trim().toUpperCase());
}

/** `value` as a certification type (`Rev5` reads as rev5); undefined when it is none. */
export function parseFedrampType(value: string): FedrampType | undefined {
  return FEDRAMP_TYPES.find((t) => t === value.trim().toLowerCase());
}

/**
 * Reads the `fedramp` section of svc.config.json. `fail(path, problem)` reports a wrong value (path `fedramp.class`),
 * the problem ending with the fix; `resolvePath` resolves a file path against the config file's directory.
 */
export function readFedrampProfile(
  value: unknown,
  fail: (path: string, problem: string) => never,
  resolvePath: (path: string) => string = (p) => p,
): FedrampProfile {
  if (!isPlainObject(value)) return fail('fedramp', `expected an object, got ${describe(value)}`);
  const at = (key: string) => `fedramp.${key}`;
  const wrong = (key: FedrampProfileKey, v: unknown, what: string): never => fail(at(key), `${describe(v)} is not ${what}; ${WRITE[key]}`);
  const text = (key: FedrampProfileKey, v: unknown, what: string) => (typeof v === 'string' && v.trim() !== '' ? v : wrong(key, v, what));
  const profile: FedrampProfile = {};
  for (const [key, v] of Object.entries(value)) {
    switch (key) {
      case 'type':
        profile.type = (typeof v === 'string' ? parseFedrampType(v) : undefined) ?? wrong(key, v, 'a certification type');
        break;
      case 'class':
        profile.class = (typeof v === 'string' ? parseCr26Class(v) : undefined) ?? wrong(key, v, 'a Certification Class');
        break;
      case 'path':
        profile.path = FEDRAMP_PATHS.find((p) => p === v) ?? wrong(key, v, 'a certification path');
        break;
      case 'status':
        profile.status = FEDRAMP_STATUSES.find((s) => s === v) ?? wrong(key, v, 'a certification status');
        break;
      case 'fedramp_id':
        profile.fedramp_id = text(key, v, 'an id');
        break;
      case 'package_uri':
      case 'evidence_base_uri': {
        const problem = publicUrlProblem(v);
        // A password in the URL is not repeated in the message.
        const shown = typeof v === 'string' ? v.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@') : v;
        profile[key] = problem === undefined ? (v as string) : fail(at(key), `${describe(shown)} ${problem}; ${WRITE[key]}`);
        break;
      }
      case 'accountable_official':
        profile.accountable_official = official(v, fail);
        break;
      case 'cpo':
        profile.cpo = isPlainObject(v) ? v : wrong(key, v, 'an object');
        break;
      case 'statements':
      case 'assessor_summary':
        profile[key] = resolvePath(text(key, v, 'a file path'));
        break;
      case 'next_assessment':
        profile.next_assessment = typeof v === 'string' && isDate(v) ? v : wrong(key, v, `a date from ${FIRST_DAY} through ${LAST_DAY}`);
        break;
      case 'agencies':
        profile.agencies = agencies(v, fail);
        break;
      case 'planned_changes':
      case 'recommendations':
      case 'advisors':
        profile[key] = Array.isArray(v)
          ? v.map((item, i) =>
              typeof item === 'string' && item.trim() !== '' ? item : fail(`${at(key)}[${i}]`, `${describe(item)} is not text; ${WRITE[key]}`),
            )
          : wrong(key, v, 'a list');
        break;
      default:
        fail(at(key), `unknown key; the profile's keys are ${FEDRAMP_PROFILE_KEYS.join(', ')}`);
    }
  }
  return profile;
}

/**
 * The profile with the keys a command needs, else an InvalidInputError `invalid-config` naming the first missing key,
 * the command that needs it and what to write (`flags` names a flag that may give it instead).
 */
export function requireProfileKeys<K extends FedrampProfileKey>(
  configured: ConfiguredFedrampProfile,
  keys: readonly K[],
  command: string,
  flags: Partial<Record<K, string>> = {},
): FedrampProfile & Required<Pick<FedrampProfile, K>> {
  for (const key of keys) {
    if (configured.profile[key] !== undefined) continue;
    const flag = flags[key] === undefined ? '' : `, or pass ${flags[key]}`;
    throw new InvalidInputError(
      'invalid-config',
      `${configured.file}: fedramp.${key}: missing; ${command} needs it: ${WRITE[key]}${flag}; see docs/configuration.md`,
    );
  }
  return configured.profile as FedrampProfile & Required<Pick<FedrampProfile, K>>;
}

function official(value: unknown, fail: (path: string, problem: string) => never): AccountableOfficial {
  if (!isPlainObject(value)) return fail('fedramp.accountable_official', `${describe(value)} is not an object; ${WRITE.accountable_official}`);
  for (const key of Object.keys(value))
    if (!['name', 'title', 'email'].includes(key)) fail(`fedramp.accountable_official.${key}`, 'unknown key; write name, title and email');
  const field = (key: 'name' | 'title' | 'email') => {
    const v = value[key];
    if (typeof v !== 'string' || v.trim() === '')
      return fail(`fedramp.accountable_official.${key}`, `${v === undefined ? 'missing' : `${describe(v)} is not text`}; write the official's ${key}`);
    if (key === 'email' && !MAILBOX.test(v))
      return fail('fedramp.accountable_official.email', `${describe(v)} is not a mailbox; write an address such as "ciso@example.com"`);
    return v;
  };
  return { name: field('name'), title: field('title'), email: field('email') };
}

function agencies(value: unknown, fail: (path: string, problem: string) => never): FedrampAgency[] {
  if (!Array.isArray(value)) return fail('fedramp.agencies', `${describe(value)} is not a list; ${WRITE.agencies}`);
  return value.map((item, i) => {
    const at = `fedramp.agencies[${i}]`;
    if (!isPlainObject(item)) return fail(at, `${describe(item)} is not an object; write {"name", "realms", "issuers", "domains"}`);
    for (const key of Object.keys(item))
      if (!['name', 'realms', 'issuers', 'domains'].includes(key)) fail(`${at}.${key}`, 'unknown key; write name, realms, issuers and domains');
    if (typeof item.name !== 'string' || item.name.trim() === '')
      fail(`${at}.name`, `${item.name === undefined ? 'missing' : `${describe(item.name)} is not text`}; write the agency's name`);
    const list = (key: 'realms' | 'issuers' | 'domains') => {
      const v = item[key];
      if (v === undefined) return [];
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s.trim() === ''))
        return fail(`${at}.${key}`, `${describe(v)} is not a list of text; write the agency's ${key} as a list of strings`);
      return v as string[];
    };
    return { name: item.name as string, realms: list('realms'), issuers: list('issuers'), domains: list('domains') };
  });
}

/** A YYYY-MM-DD date that exists on the calendar, within the days svc counts in. */
function isDate(value: string): boolean {
  return isCalendarDay(value) && value >= FIRST_DAY && value <= LAST_DAY;
}

/**
 * The agencies `--agency` names, each as the profile's `fedramp.agencies` writes it (exactly, case included: the name
 * goes into incident reports and the OCR as written there). An empty name is a UsageError (exit 2); a name the profile
 * does not hold is an InvalidInputError `unknown-agency` (exit 3) naming the configured ones.
 */
export function configuredAgencies(configured: ConfiguredFedrampProfile, given: readonly string[], flag = '--agency'): string[] {
  const names = (configured.profile.agencies ?? []).map((a) => a.name);
  for (const name of given) {
    if (name.trim() === '') throw new UsageError('bad-flag-value', `${flag} is empty; write the name of an agency of fedramp.agencies in ${configured.file}`);
    if (names.includes(name)) continue;
    if (names.length === 0) {
      throw new InvalidInputError(
        'unknown-agency',
        `${flag} ${JSON.stringify(name)}: ${configured.file}: fedramp.agencies names no agency; add the agency there ({"name": ${JSON.stringify(name)}}), then name it`,
      );
    }
    const cased = names.find((n) => n.toLowerCase() === name.toLowerCase());
    throw new InvalidInputError(
      'unknown-agency',
      `${flag} ${JSON.stringify(name)}: not an agency of fedramp.agencies in ${configured.file}${cased === undefined ? '' : ` (which writes it ${JSON.stringify(cased)}: names match exactly)`}; write one of ${names.map((n) => JSON.stringify(n)).join(', ')}, or add the agency there`,
    );
  }
  return [...given];
}
