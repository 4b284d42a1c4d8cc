import { isoSeconds } from '../encoding/iso-time';
import { markdownText } from '../encoding/markdown';
import { InvalidInputError } from '../errors';
import type { ContentDigest } from '../evidence/content-digest';
import { describe, isPlainObject } from '../encoding/json-values';
import type { Cr26Class, Cr26Force, Cr26Rules } from './cr26-rules';
import { citedTitle, holdsRule, reliedRule } from './relied-rules';
import type {
  CpoAdvisor,
  CpoAssessor,
  CpoDocument,
  CpoMetadata,
  CpoRepository,
  CpoServiceIdentification,
  CpoServiceProperties,
  CpoThirdPartyInformationResources,
} from './cpo-document';
import type { AccountableOfficial, FedrampProfile } from './profile';
import { quotedMarkdown, twinHeader } from './twin';

/** The profile keys the CPO is built from (DESIGN §12.1: `cpo` needs these). */
export const CPO_PROFILE_KEYS = ['type', 'class', 'fedramp_id', 'package_uri', 'cpo', 'accountable_official'] as const;

export type CpoProfile = FedrampProfile & Required<Pick<FedrampProfile, (typeof CPO_PROFILE_KEYS)[number]>>;

/** The assessor's overall summary (CPO-CSO-OSA): the file the profile names, as read. */
export interface AssessorSummary {
  /** The file's base name. */
  name: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  text: string;
}

export interface CpoInput {
  profile: CpoProfile;
  /** The config file the profile came from, for messages. */
  file: string;
  /** CCM-OCR-NRD, YYYY-MM-DD: the last recorded OCR's period end + 3 months; undefined while none is recorded. */
  nextOcrDate?: string;
  /** Before the first OCR: its target date (3 months after the package's date), unless the profile's cpo gives one. */
  firstOcrDate?: string;
  summary?: AssessorSummary;
  now: Date;
  /** `svc 0.9.0 fedramp cpo`. */
  updateSource: string;
  /** The CPO's version; else derived from its content (cpoVersion). */
  version?: string;
  /**
   * The profile's advisors (`fedramp.advisors`), written as `advisors` when the CPO schema in use declares it
   * (Cr26Shapes.advisors, CPO 0.1.6 on); undefined leaves them out.
   */
  advisors?: readonly string[];
}

/** The sections svc knows, in the schema's order; other top-level keys of the profile's object follow in its order. */
const SECTIONS: readonly Named<CpoDocument>[] = [
  'serviceIdentification',
  'serviceProperties',
  'contactInformation',
  'assessor',
  'advisors',
  'certifiedServices',
  'thirdPartyInformationResources',
] as const;
/** Top-level keys svc writes from other profile keys. */
const FILLED: readonly Named<CpoDocument>[] = ['certificationPackageOverviewUri', 'metadata'];

type Digest = Pick<ContentDigest, 'canonicalize' | 'sha256'>;

/**
 * The Certification Package Overview (CPO-CSO-OVR, DESIGN §12.3): the profile's `cpo` object, completed with
 * `serviceIdentification.fedRampPackageId` (fedramp_id, CDS-CSO-FID), `certificationType` (the type),
 * `serviceProperties.nextOngoingCertificationReportDate` (CCM-OCR-NRD, when known), `certificationPackageOverviewUri`
 * (package_uri) and `metadata` (CPO-CSO-MTD). A value the profile's object gives that differs from what svc fills is an
 * InvalidInputError `invalid-config` naming the key and the fix; a section that is not an object as well.
 */
export function buildCpo(input: CpoInput, digest: Digest): CpoDocument {
  const { profile, file } = input;
  const cpo = profile.cpo;
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-config', `${file}: fedramp.cpo.${path}: ${problem}; see docs/fedramp.md`);
  };
  const section = (key: 'serviceIdentification' | 'serviceProperties'): Record<string, unknown> => {
    const value = cpo[key];
    if (value === undefined) return {};
    return isPlainObject(value) ? value : fail(key, `${describe(value)} is not an object; write the object of FedRAMP's CPO schema`);
  };
  const agree = (path: string, given: unknown, filled: string, from: string) => {
    if (given !== undefined && given !== filled)
      fail(
        path,
        `${describe(given)} differs from ${JSON.stringify(filled)}, which svc writes from ${from}; remove it from fedramp.cpo (or make the two agree)`,
      );
  };
  if (cpo.metadata !== undefined)
    fail('metadata', 'svc writes the metadata (CPO-CSO-MTD) from fedramp.accountable_official and the run; remove it from fedramp.cpo');
  agree('certificationPackageOverviewUri', cpo.certificationPackageOverviewUri, profile.package_uri, 'fedramp.package_uri');

  const identification = section('serviceIdentification');
  const certificationType = profile.type === '20x' ? '20x' : 'Rev5';
  agree('serviceIdentification.fedRampPackageId', identification.fedRampPackageId, profile.fedramp_id, 'fedramp.fedramp_id');
  agree('serviceIdentification.certificationType', identification.certificationType, certificationType, 'the certification type (fedramp.type or --type)');
  const properties = section('serviceProperties');
  const nextOcr = properties.nextOngoingCertificationReportDate;
  if (input.nextOcrDate !== undefined)
    agree('serviceProperties.nextOngoingCertificationReportDate', nextOcr, input.nextOcrDate, 'the last recorded OCR (CCM-OCR-NRD)');

  // Built in the order written; the profile's fields are copied as given (see CpoDocument), hence the cast at the end.
  const document: Record<string, unknown> = {};
  for (const key of SECTIONS) {
    if (key === 'serviceIdentification') {
      const filled: CpoServiceIdentification = {
        fedRampPackageId: profile.fedramp_id,
        certificationType,
        ...without(identification, ['fedRampPackageId', 'certificationType']),
      };
      document[key] = filled;
    } else if (key === 'serviceProperties') {
      const next = input.nextOcrDate ?? nextOcr ?? input.firstOcrDate;
      const rest: CpoServiceProperties = without(properties, ['nextOngoingCertificationReportDate']);
      document[key] = next === undefined ? rest : { ...rest, nextOngoingCertificationReportDate: next };
    } else if (key === 'advisors') {
      if (cpo.advisors !== undefined) fail('advisors', 'svc writes the advisors from fedramp.advisors (a list of names); move them there');
      if (input.advisors !== undefined && input.advisors.length > 0) document.advisors = input.advisors.map((name): CpoAdvisor => ({ name }));
    } else if (cpo[key] !== undefined) document[key] = cpo[key];
  }
  for (const [key, value] of Object.entries(cpo))
    if (!(SECTIONS as readonly string[]).includes(key) && !(FILLED as readonly string[]).includes(key)) document[key] = value;
  document.certificationPackageOverviewUri = profile.package_uri;
  const official = profile.accountable_official;
  const accountableOfficial = { name: official.name, title: official.title, email: official.email };
  const version = input.version ?? cpoVersion(document, accountableOfficial, input.summary, digest);
  const metadata: CpoMetadata = { accountableOfficial, version, lastUpdated: isoSeconds(input.now), updateSource: input.updateSource };
  document.metadata = metadata;
  return document as CpoDocument;
}

/**
 * The version svc gives a CPO: the first 12 hex digits of the SHA-256 of the RFC 8785 canonical JSON of what it says
 * (the document without metadata, the accountable official, the assessor's summary), so it changes exactly when the
 * content does, never with the time of the run.
 */
export function cpoVersion(document: Record<string, unknown>, official: AccountableOfficial, summary: AssessorSummary | undefined, digest: Digest): string {
  return digest.sha256(digest.canonicalize({ document, accountableOfficial: official, assessorSummary: summary?.text ?? null })).slice(0, 12);
}

/** What the twin shows besides the document. */
export interface CpoTwinInput {
  class: Cr26Class;
  summary?: AssessorSummary;
  rules: Cr26Rules;
  tool: { name: string; version: string };
  /** The JSON twin's name: `cpo.json`. */
  json: string;
  /** The information resources and flows files written with the CPO (MAS-CSO-IIR, MAS-CSO-FLO), by name. */
  related?: { resources: string; flows: string };
}

/** The fields a section's type names, not its index signature: a label of a misspelt field does not compile. */
type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] } & string;

const ID_LABELS: [Named<CpoServiceIdentification>, string][] = [
  ['fedRampPackageId', 'FedRAMP ID'],
  ['providerName', 'Provider'],
  ['serviceName', 'Service'],
  ['serviceAcronym', 'Acronym'],
  ['certificationType', 'Certification type'],
  ['ueiNumber', 'UEI number'],
  ['website', 'Website'],
  ['logo', 'Logo'],
];
const PROPERTY_LABELS: [Named<CpoServiceProperties>, string][] = [
  ['serviceType', 'Service model'],
  ['deploymentModel', 'Deployment model'],
  ['businessCategory', 'Business category'],
  ['nextOngoingCertificationReportDate', 'Next Ongoing Certification Report'],
];
const ASSESSOR_LABELS: [keyof CpoAssessor, string][] = [
  ['name', 'Name'],
  ['assessorID', "Assessor's FedRAMP ID"],
];
const REPOSITORIES: ['trustCenter' | 'secureConfigurationGuidance', string][] = [
  ['trustCenter', 'Trust center'],
  ['secureConfigurationGuidance', 'Secure configuration guidance'],
];

/** The CPO's Markdown twin (DESIGN §12.3): the same document, section by section, and the assessor's summary (CPO-CSO-OSA). */
export function cpoMarkdown(document: CpoDocument, twin: CpoTwinInput): string {
  const id = document.serviceIdentification;
  const properties = document.serviceProperties;
  const meta = document.metadata;
  const lines = twinHeader({
    title: 'Certification Package Overview',
    service: typeof id.serviceName === 'string' ? id.serviceName : undefined,
    fedrampId: id.fedRampPackageId,
    packageUri: document.certificationPackageOverviewUri,
    rulesVersion: twin.rules.info.version,
    tool: twin.tool,
    generatedAt: meta.lastUpdated,
    json: twin.json,
  });

  lines.push('## Service identification', '', ...fieldTable(id, ID_LABELS, ['serviceDescription']));
  if (id.serviceDescription !== undefined) lines.push('', 'Description:', '', ...prose(id.serviceDescription));

  lines.push('', '## Service properties', '', ...fieldTable(properties, PROPERTY_LABELS, [...REPOSITORIES.map(([k]) => k), 'additionalRepositories']));
  if (properties.nextOngoingCertificationReportDate === undefined) {
    const asks = holdsRule(twin.rules, 'CCM-OCR-NRD') ? ' CCM-OCR-NRD asks for its target date;' : '';
    lines.push('', `Next Ongoing Certification Report: not set yet.${asks} svc sets it from the last recorded OCR (its period end + 3 months).`);
  }
  const repositories = [
    ...REPOSITORIES.filter(([key]) => properties[key] !== undefined).map(([key, label]) => ({ label, repository: properties[key] })),
    ...(Array.isArray(properties.additionalRepositories) ? properties.additionalRepositories.map((repository) => ({ label: 'Additional', repository })) : []),
  ];
  if (repositories.length > 0) {
    lines.push('', '| repository | type | URL | authentication required | description | access instructions |', '|---|---|---|---|---|---|');
    for (const { label, repository } of repositories) {
      const r: Partial<CpoRepository> = isPlainObject(repository) ? repository : {};
      lines.push(
        row([label, cell(r.repositoryType), cell(r.url), cell(r.authenticationRequired), cell(r.repositoryDescription), cell(r.accessRequestInstructions)]),
      );
    }
  }

  lines.push(
    '',
    '## Contacts',
    '',
    ...listTable(
      document.contactInformation,
      ['type', 'name', 'email', 'phone'],
      ['contactType', 'contactName', 'contactEmail', 'contactPhone'],
      'None given (fedramp.cpo.contactInformation).',
    ),
  );

  lines.push('', '## Independent assessor', '');
  lines.push(...(isPlainObject(document.assessor) ? fieldTable(document.assessor, ASSESSOR_LABELS) : ['None named (fedramp.cpo.assessor).']));

  lines.push(
    '',
    '## Certified services',
    '',
    ...listTable(
      document.certifiedServices,
      ['service', 'available', 'description'],
      ['serviceName', 'dateAvailable', 'serviceDescription'],
      'None listed (fedramp.cpo.certifiedServices).',
    ),
  );

  lines.push('', '## Third-party information resources', '');
  const third: CpoThirdPartyInformationResources = isPlainObject(document.thirdPartyInformationResources) ? document.thirdPartyInformationResources : {};
  lines.push(
    'FedRAMP certified:',
    '',
    ...listTable(third.certified, ['FedRAMP ID', 'use case'], ['fedRampCertifiedThirdPartyInformationResource', 'useCase'], 'None listed.'),
  );
  lines.push(
    '',
    'Not FedRAMP certified:',
    '',
    ...listTable(third.nonCertified, ['name', 'provider', 'website', 'use case'], ['name', 'provider', 'website', 'useCase'], 'None listed.'),
  );

  const others = Object.keys(document).filter((key) => !(SECTIONS as readonly string[]).includes(key) && !(FILLED as readonly string[]).includes(key));
  if (others.length > 0)
    lines.push('', '## Other fields', '', '| field | value |', '|---|---|', ...others.map((key) => row([markdownText(key), cell(document[key])])));

  if (twin.related !== undefined) {
    lines.push('', '## Information resources and flows', '');
    lines.push(
      `- ${citedTitle(twin.rules, 'Information resources', ['MAS-CSO-IIR'])}: ${markdownText(twin.related.resources)}`,
      `- ${citedTitle(twin.rules, 'Information flows', ['MAS-CSO-FLO'])}: ${markdownText(twin.related.flows)}`,
    );
  }

  lines.push('', `## ${citedTitle(twin.rules, 'Metadata', ['CPO-CSO-MTD'])}`, '', '| field | value |', '|---|---|');
  lines.push(
    row(['Accountable official', cell(meta.accountableOfficial.name)]),
    row(['Title', cell(meta.accountableOfficial.title)]),
    row(['Email', cell(meta.accountableOfficial.email)]),
    row(['Version', cell(meta.version)]),
    row(['Last updated', cell(meta.lastUpdated)]),
    row(['Source of update', cell(meta.updateSource)]),
  );

  lines.push('', `## ${citedTitle(twin.rules, 'Overall summary of assessment', [OSA_RULE])}`, '');
  if (twin.summary !== undefined) {
    lines.push(
      `Supplied by the assessor (${markdownText(twin.summary.name)}, sha256:${twin.summary.sha256}):`,
      '',
      ...quotedMarkdown(twin.summary.text.replace(/\s+$/, '')),
    );
  } else {
    lines.push(noSummary(osaForce(twin.rules, twin.class), twin.class));
  }
  return `${lines.join('\n')}\n`;
}

const OSA_RULE = reliedRule('CPO-CSO-OSA');

/** CPO-CSO-OSA's force for the class, read from the rules in use; undefined when the release lacks the rule. */
export function osaForce(rules: Cr26Rules, cls: Cr26Class): Cr26Force | undefined {
  const rule = rules.rules.find((r) => r.id === OSA_RULE);
  return rule?.varies_by_class?.[cls]?.force ?? rule?.force;
}

function noSummary(force: Cr26Force | undefined, cls: Cr26Class): string {
  if (force === 'MUST')
    return `None supplied. ${OSA_RULE} requires (MUST) the assessor's overall summary in the CPO for Class ${cls}: name the assessor's file in fedramp.assessor_summary.`;
  const said = force === undefined ? '' : ` (${OSA_RULE}: ${force} for Class ${cls})`;
  return `None supplied${said}; to include one, name the assessor's file in fedramp.assessor_summary.`;
}

/** The known fields of an object in a table, in `labels` order, then the fields svc does not know (not `skip`). */
function fieldTable(object: Record<string, unknown>, labels: [string, string][], skip: string[] = []): string[] {
  const known = new Set([...labels.map(([key]) => key), ...skip]);
  const rows = [
    ...labels.filter(([key]) => object[key] !== undefined).map(([key, label]) => row([label, cell(object[key])])),
    ...Object.keys(object)
      .filter((key) => !known.has(key))
      .map((key) => row([markdownText(key), cell(object[key])])),
  ];
  return rows.length === 0 ? ['None given.'] : ['| field | value |', '|---|---|', ...rows];
}

/** A list of objects as a table of the given fields of its entries' type (others, if any, in a last column). */
function listTable<T>(list: readonly T[] | undefined, headings: string[], keys: readonly (keyof T & string)[], none: string): string[] {
  if (!Array.isArray(list) || list.length === 0) return [list === undefined || Array.isArray(list) ? none : cell(list)];
  const known: readonly string[] = keys;
  const extra = list.some((item) => isPlainObject(item) && Object.keys(item).some((k) => !known.includes(k)));
  const head = extra ? [...headings, 'other'] : headings;
  const rows = list.map((item) => {
    const o = isPlainObject(item) ? item : {};
    const cells = keys.map((k) => cell(o[k]));
    if (extra) cells.push(cell(Object.fromEntries(Object.entries(o).filter(([k]) => !known.includes(k)))));
    return row(isPlainObject(item) ? cells : [cell(item), ...cells.slice(1)]);
  });
  return [row(head.map(markdownText)), `|${head.map(() => '---').join('|')}|`, ...rows];
}

/** A value in one table cell: text escaped (markdownText), lists joined, anything else as its JSON. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return markdownText(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map(markdownText).join(', ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return markdownText(JSON.stringify(value));
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Text the provider may write in Markdown (the schema says so): quoted, so it cannot break the twin. */
function prose(value: unknown): string[] {
  return typeof value === 'string' ? quotedMarkdown(value.replace(/\s+$/, '')) : [cell(value)];
}

function without(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}
