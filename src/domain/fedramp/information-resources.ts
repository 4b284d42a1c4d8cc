import { markdownText } from '../encoding/markdown';
import { RESOURCE_CATEGORIES, type ResourceCategory, type Snapshot } from '../substrate/snapshot';
import { twinHeader } from './twin';
import { plural } from '../encoding/plural';
import type { Cr26Rules } from './cr26-rules';
import { citedTitle, citing, holdsRule } from './relied-rules';

export const INFORMATION_RESOURCES_SCHEMA = 'svc.fedramp-information-resources/v1';
export const INFORMATION_FLOWS_SCHEMA = 'svc.fedramp-information-flows/v1';

/** The default names of the two files, written beside the CPO. */
export const INFORMATION_RESOURCES_FILE = 'information-resources.json';
export const INFORMATION_FLOWS_FILE = 'information-flows.json';

/**
 * What the information resources (MAS-CSO-IIR) and flows (MAS-CSO-FLO) files are derived from. The CPO schema has no
 * field for either, so they are files of their own (DESIGN §12.3), each carrying how it was derived and the command.
 */
export interface InformationResourcesInput {
  /** A snapshot of `svc substrate walk`, already checked (parseSnapshot). */
  snapshot: Snapshot;
  /** The snapshot file's name as the commands name it: `snapshot.json`. */
  snapshotFile: string;
  /** The profile's fedramp_id (CDS-CSO-FID). */
  fedrampId: string;
  /** The profile's package_uri. */
  packageUri: string;
  /** The svc command that writes these files from the snapshot, as typed: `svc fedramp cpo --substrate snapshot.json`. */
  generator: string;
  /** The release in use: a file cites its rule only where the release holds it. */
  rules: Pick<Cr26Rules, 'rules'>;
}

/** One information resource: a configuration object of the snapshot. */
export interface InformationResource {
  id: string;
  kind: string;
  category: ResourceCategory;
  file: string;
  sha256: string;
}

/** The snapshot a file was derived from. */
export interface SnapshotReference {
  schema: Snapshot['schema'];
  root: string;
  merkle_root: string;
  files: number;
  resources: number;
}

interface DerivedDocument {
  certificationPackageOverviewUri: string;
  fedRampPackageId: string;
  rule?: string;
  snapshot: SnapshotReference;
  /** How the file was derived, for a human (the rule's second artifact). */
  derivation: string;
  /** The automated process that generated it (the rule's third artifact). */
  command: string;
}

export interface InformationResourcesDocument extends DerivedDocument {
  schema: typeof INFORMATION_RESOURCES_SCHEMA;
  /** Where the release in use holds it. */
  rule?: 'MAS-CSO-IIR';
  counts: Record<ResourceCategory, number> & { total: number };
  resources: InformationResource[];
}

export interface InformationFlowsDocument extends DerivedDocument {
  schema: typeof INFORMATION_FLOWS_SCHEMA;
  /** Where the release in use holds it. */
  rule?: 'MAS-CSO-FLO';
  /** What svc cannot see and the provider must describe. */
  provider_must_describe: string;
  resources: Omit<InformationResource, 'category'>[];
}

/** What the twins show besides the document. */
export interface DerivedTwinInput {
  service?: string;
  rulesVersion: string;
  tool: { name: string; version: string };
  /** ISO-8601 UTC. */
  generatedAt: string;
  /** The JSON twin's name. */
  json: string;
}

/** MAS-CSO-IIR: every resource of the snapshot, in id order. */
export function informationResources(input: InformationResourcesInput): InformationResourcesDocument {
  const { snapshot } = input;
  const resources = snapshot.resources.map((r) => ({ id: r.id, kind: r.kind, category: r.category, file: r.file, sha256: r.sha256 }));
  const counts = {
    total: resources.length,
    ...(Object.fromEntries(RESOURCE_CATEGORIES.map((c) => [c, resources.filter((r) => r.category === c).length])) as Record<ResourceCategory, number>),
  };
  return {
    schema: INFORMATION_RESOURCES_SCHEMA,
    ...head(
      input,
      'MAS-CSO-IIR',
      `svc substrate walk read every file of the configuration tree "${snapshot.root}" (Terraform state, Kubernetes manifests, ` +
        'Microsoft 365 settings exports, other JSON and YAML) and recorded each configuration object it found as a resource: its id, ' +
        'its kind, the file it sits in, the SHA-256 of its content (RFC 8785 canonical JSON, so key order does not matter) and a ' +
        "category (identity, access, network, data, other) told from its kind. This file lists every one of the snapshot's " +
        `${resources.length} resources, in id order, none left out, and names the snapshot by its Merkle root, so anyone can walk the ` +
        'same tree and compare. svc does not judge which resources handle federal customer data: all are listed. Resources the ' +
        'tree does not describe (services configured elsewhere, third-party information resources) are not in it; the provider ' +
        `adds them (third-party ones in the CPO's thirdPartyInformationResources${holdsRule(input.rules, 'MAS-CSO-TPR') ? ', MAS-CSO-TPR' : ''}).`,
    ),
    counts,
    resources,
  };
}

/** MAS-CSO-FLO: the network resources of the snapshot, the configuration that permits or denies connections. */
export function informationFlows(input: InformationResourcesInput): InformationFlowsDocument {
  const { snapshot } = input;
  const resources = snapshot.resources.filter((r) => r.category === 'network').map((r) => ({ id: r.id, kind: r.kind, file: r.file, sha256: r.sha256 }));
  return {
    schema: INFORMATION_FLOWS_SCHEMA,
    ...head(
      input,
      'MAS-CSO-FLO',
      `The resources of the substrate snapshot of "${snapshot.root}" that svc substrate walk sorted into the network category: ` +
        'security groups, firewall rules, network policies, subnets, routes, load balancers, gateways, ingress and service ' +
        "definitions, DNS and mail routing, told from each resource's kind. They are the configuration that permits or denies " +
        `connections between the offering's components: ${resources.length} of the snapshot's ${snapshot.resources.length} resources, in id order.`,
    ),
    provider_must_describe:
      'svc reads configuration, not traffic: it lists the resources that govern information flows, not the flows. The provider ' +
      'must describe each permitted flow between components (source, destination, port and protocol, the information it ' +
      'carries), the flows through third-party information resources and to agencies, and the security category of each ' +
      `${citedTitle(input.rules, 'information resource or set of them', ['MAS-CSO-FLO'])}; svc cannot see these.`,
    resources,
  };
}

/** The Markdown twin of the information resources file. */
export function informationResourcesMarkdown(document: InformationResourcesDocument, twin: DerivedTwinInput): string {
  const c = document.counts;
  const lines = [
    ...header('Information Resources', document, twin),
    ...derived(document),
    `## Resources (${c.total})`,
    '',
    RESOURCE_CATEGORIES.map((category) => `${category} ${c[category]}`).join(', '),
    '',
  ];
  if (document.resources.length === 0) lines.push('The snapshot holds no resources.');
  else {
    lines.push('| id | kind | category | file | sha256 |', '|---|---|---|---|---|');
    for (const r of document.resources)
      lines.push(`| ${markdownText(r.id)} | ${markdownText(r.kind)} | ${r.category} | ${markdownText(r.file)} | ${r.sha256} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The Markdown twin of the information flows file. */
export function informationFlowsMarkdown(document: InformationFlowsDocument, twin: DerivedTwinInput): string {
  const lines = [
    ...header('Information Flows', document, twin),
    ...derived(document),
    '## What the provider must describe',
    '',
    markdownText(document.provider_must_describe),
    '',
    `## Network resources (${document.resources.length})`,
    '',
  ];
  if (document.resources.length === 0) lines.push('The snapshot holds no network resources.');
  else {
    lines.push('| id | kind | file | sha256 |', '|---|---|---|---|');
    for (const r of document.resources) lines.push(`| ${markdownText(r.id)} | ${markdownText(r.kind)} | ${markdownText(r.file)} | ${r.sha256} |`);
  }
  return `${lines.join('\n')}\n`;
}

function head<R extends string>(input: InformationResourcesInput, rule: R, derivation: string): DerivedDocument & { rule?: R } {
  const { snapshot } = input;
  return {
    certificationPackageOverviewUri: input.packageUri,
    fedRampPackageId: input.fedrampId,
    ...citing(input.rules, rule),
    snapshot: {
      schema: snapshot.schema,
      root: snapshot.root,
      merkle_root: snapshot.merkle_root,
      files: snapshot.files.length,
      resources: snapshot.resources.length,
    },
    derivation,
    command: `svc substrate walk ${shellWord(snapshot.root)} --out ${shellWord(input.snapshotFile)} && ${input.generator}`,
  };
}

function header(title: string, document: DerivedDocument, twin: DerivedTwinInput): string[] {
  return [
    ...twinHeader({
      title,
      service: twin.service,
      fedrampId: document.fedRampPackageId,
      packageUri: document.certificationPackageOverviewUri,
      rulesVersion: twin.rulesVersion,
      tool: twin.tool,
      generatedAt: twin.generatedAt,
      json: twin.json,
    }),
    `${document.rule === undefined ? '' : `Rule: ${document.rule}. `}Snapshot: ${markdownText(document.snapshot.root)}, Merkle root ${document.snapshot.merkle_root} (${plural(document.snapshot.files, 'file')}, ${plural(document.snapshot.resources, 'resource')}).`,
    '',
  ];
}

function derived(document: DerivedDocument): string[] {
  return ['## How it was derived', '', markdownText(document.derivation), '', '## The command that generated it', '', ...codeBlock(document.command), ''];
}

/** A fenced block that no backtick run in the text can close early. */
function codeBlock(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}sh`, flat, fence];
}

/** A word as a POSIX shell reads it back: bare when it is only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._/:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
