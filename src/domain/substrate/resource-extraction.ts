import type { ContentDigest } from '../evidence/content-digest';
import { byCodeUnits, type FileFormat, type ResourceCategory, type SnapshotResource } from './snapshot';

type Digest = Pick<ContentDigest, 'canonicalize' | 'sha256'>;
type JsonObject = Record<string, unknown>;

/** A parsed file as resource extraction sees it: a JSON file has one document, a YAML file one per `---`. */
export interface ParsedFile {
  path: string;
  format: FileFormat;
  documents: readonly unknown[];
}

/**
 * The format of a file that parsed as JSON or YAML, from its name and content:
 * `.tfstate`, or JSON with `terraform_version` → terraform-state; any document with apiVersion and kind → kubernetes;
 * JSON named `*ProviderSettingsExport*` or shaped like ScubaGear's export (module_version and a
 * `<product>_successful_commands` key) → m365-settings; else plain json or yaml.
 */
export function structuredFormat(path: string, syntax: 'json' | 'yaml', documents: readonly unknown[]): FileFormat {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const first = documents.length === 1 && isObject(documents[0]) ? documents[0] : undefined;
  if (syntax === 'json' && (/\.tfstate$/i.test(name) || (first !== undefined && typeof first.terraform_version === 'string'))) return 'terraform-state';
  if (documents.some(isKubernetesObject)) return 'kubernetes';
  if (syntax === 'json' && first !== undefined && (/ProviderSettingsExport/i.test(name) || looksLikeScubaExport(first))) return 'm365-settings';
  return syntax;
}

/** The sorted union of the top-level keys of a file's object documents; undefined when it has none. */
export function topLevelKeys(documents: readonly unknown[]): string[] | undefined {
  const objects = documents.filter(isObject);
  if (objects.length === 0) return undefined;
  return [...new Set(objects.flatMap((d) => Object.keys(d)))].sort(byCodeUnits);
}

/**
 * The resources of one file, by its format. A resource's hash covers its content only (canonical JSON), never
 * where it sits in the file; values are hashed, never copied (a Secret's data, a state's sensitive attributes).
 */
export function extractResources(file: ParsedFile, digest: Digest): SnapshotResource[] {
  const found =
    file.format === 'terraform-state'
      ? terraformResources(file.documents[0])
      : file.format === 'kubernetes'
        ? kubernetesResources(file.documents)
        : file.format === 'm365-settings'
          ? m365Resources(file.documents[0])
          : [];
  return found.map(({ id, kind, category, content }) => ({ id, kind, file: file.path, sha256: digest.sha256(digest.canonicalize(content)), category }));
}

/**
 * Makes ids unique across a tree: when several resources share an id (the same Terraform address in two state
 * files, one Kubernetes object in two manifests), each gets `@<file>` appended, and `#<n>` (1-based, in file
 * order) when one file holds it more than once.
 */
export function disambiguate(resources: readonly SnapshotResource[]): SnapshotResource[] {
  const seen = new Map<string, number>();
  for (const r of resources) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const perFile = new Map<string, number>();
  const withFile = resources.map((r) => ((seen.get(r.id) ?? 0) > 1 ? { ...r, id: `${r.id}@${r.file}` } : r));
  for (const r of withFile) perFile.set(r.id, (perFile.get(r.id) ?? 0) + 1);
  const counter = new Map<string, number>();
  return withFile.map((r) => {
    if ((perFile.get(r.id) ?? 0) < 2) return r;
    const n = (counter.get(r.id) ?? 0) + 1;
    counter.set(r.id, n);
    return { ...r, id: `${r.id}#${n}` };
  });
}

interface Found {
  id: string;
  kind: string;
  category: ResourceCategory;
  content: unknown;
}

// Terraform state v4: resources[] of {module?, mode, type, name, instances[] of {index_key?, attributes}}.

/** `terraform:<module.>[data.]<type>.<name>[<index_key>]`, the resource address Terraform prints. */
function terraformResources(state: unknown): Found[] {
  if (!isObject(state) || state.version !== 4 || !Array.isArray(state.resources)) return [];
  const found: Found[] = [];
  for (const resource of state.resources) {
    if (!isObject(resource) || typeof resource.type !== 'string' || typeof resource.name !== 'string' || !Array.isArray(resource.instances)) continue;
    const prefix = `${typeof resource.module === 'string' ? `${resource.module}.` : ''}${resource.mode === 'data' ? 'data.' : ''}`;
    const address = `${prefix}${resource.type}.${resource.name}`;
    for (const instance of resource.instances) {
      if (!isObject(instance)) continue;
      const key = instance.index_key;
      const index = typeof key === 'number' ? `[${key}]` : typeof key === 'string' ? `[${JSON.stringify(key)}]` : '';
      found.push({
        id: `terraform:${address}${index}`,
        kind: resource.type,
        category: terraformCategory(resource.type),
        content: instance.attributes ?? instance.attributes_flat ?? null,
      });
    }
  }
  return found;
}

/**
 * By resource type, first rule that matches: grants (IAM policies, roles, bindings, members, role assignments)
 * → access; users, service accounts, identities, `azuread_*` → identity; any other `*_iam_*` or `google_*iam*` →
 * access; network objects → network; stores and keys → data; else other.
 */
export function terraformCategory(type: string): ResourceCategory {
  const iam = /_iam_|^azurerm_role_|^google_.*iam|^azuread_/.test(type);
  if (iam && /polic|role|binding|member|grant|permission|assignment/.test(type)) return 'access';
  if (/_user|^azuread_|_identity|service_account|_group_membership/.test(type)) return 'identity';
  if (iam) return 'access';
  if (/security_group|_network|firewall|_vpc|_subnet|_route|_lb$|_lb_|load_balancer|_dns_|_gateway|_nsg/.test(type)) return 'network';
  if (/bucket|_s3_|database|_db_|_db$|_rds|_sql|dynamodb|_kms_|key_vault|_secret|storage_account|_key$|_disk|_volume|_snapshot/.test(type)) return 'data';
  return 'other';
}

// Kubernetes: every document with apiVersion, kind and metadata.name.

/** Fields the cluster writes, not the author: left out of the hash so a re-export of an unchanged object is not drift. */
const SERVER_METADATA = ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'selfLink'];

/** `k8s:<apiVersion>/<kind>/<namespace or ->/<name>`. */
function kubernetesResources(documents: readonly unknown[]): Found[] {
  const found: Found[] = [];
  for (const doc of documents) {
    if (!isKubernetesObject(doc)) continue;
    const metadata = doc.metadata as JsonObject;
    const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : '-';
    const { status: _status, ...authored } = doc;
    const content = { ...authored, metadata: Object.fromEntries(Object.entries(metadata).filter(([k]) => !SERVER_METADATA.includes(k))) };
    found.push({
      id: `k8s:${doc.apiVersion}/${doc.kind}/${namespace}/${metadata.name}`,
      kind: doc.kind as string,
      category: kubernetesCategory(doc.kind as string),
      content,
    });
  }
  return found;
}

/** RBAC kinds → access; ServiceAccount → identity; NetworkPolicy, Service, Ingress → network; Secret, volumes → data. */
export function kubernetesCategory(kind: string): ResourceCategory {
  if (/^(Cluster)?Role(Binding)?$/.test(kind)) return 'access';
  if (kind === 'ServiceAccount') return 'identity';
  if (['NetworkPolicy', 'Service', 'Ingress', 'IngressClass', 'Gateway', 'HTTPRoute'].includes(kind)) return 'network';
  if (['Secret', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass'].includes(kind)) return 'data';
  return 'other';
}

function isKubernetesObject(doc: unknown): doc is JsonObject {
  return (
    isObject(doc) &&
    typeof doc.apiVersion === 'string' &&
    typeof doc.kind === 'string' &&
    isObject(doc.metadata) &&
    typeof doc.metadata.name === 'string' &&
    doc.metadata.name !== ''
  );
}

// ScubaGear's ProviderSettingsExport.json: one object, one key per settings section, products one after another.

/** Sections of ScubaGear 1.x's export by product; a section it adds later takes the product of the next `<product>_successful_commands` key. */
const M365_SECTIONS: Record<string, readonly string[]> = {
  aad: [
    'tenant_details',
    'conditional_access_policies',
    'cap_table_data',
    'authorization_policies',
    'privileged_users',
    'privileged_service_principals',
    'privileged_roles',
    'service_plans',
    'directory_settings',
    'authentication_method',
    'domain_settings',
    'license_information',
    'license_state',
    'total_user_count',
    'risky_applications',
    'risky_third_party_service_principals',
    'risky_delegated_permission_classifications',
    'legacy_exchange_service_principal',
    'dedicated_exchange_hybrid_applications',
  ],
  defender: [
    'protection_policy_rules',
    'atp_policy_rules',
    'dlp_compliance_policies',
    'dlp_compliance_rules',
    'anti_phish_policies',
    'protection_alerts',
    'admin_audit_log_config',
    'atp_policy_for_o365',
    'defender_license',
    'defender_dlp_license',
  ],
  exo: [
    'remote_domains',
    'accepted_domains',
    'spf_records',
    'dkim_config',
    'dkim_records',
    'dmarc_records',
    'transport_config',
    'sharing_policy',
    'transport_rule',
    'conn_filter',
    'org_config',
    'inbound_connectors',
    'outbound_connectors',
    'intra_org_connectors',
    'org_relationships',
  ],
  powerplatform: ['tenant_id', 'environment_creation', 'dlp_policies', 'tenant_isolation', 'environment_list'],
  sharepoint: ['SPO_tenant', 'OneDrive_PnP_Flag'],
  teams: [
    'teams_tenant_info',
    'meeting_policies',
    'federation_configuration',
    'client_configuration',
    'app_policies',
    'broadcast_policies',
    'tenant_app_settings',
  ],
};
const PRODUCT_OF = new Map(Object.entries(M365_SECTIONS).flatMap(([product, sections]) => sections.map((s) => [s, product] as const)));
/** `securitysuite_` is how ScubaGear names Defender's command lists. */
const MARKER_PRODUCT: Record<string, string> = {
  aad: 'aad',
  securitysuite: 'defender',
  defender: 'defender',
  exo: 'exo',
  powerplatform: 'powerplatform',
  sharepoint: 'sharepoint',
  teams: 'teams',
};
/** Facts about the export run, not tenant settings: they change every run and are not resources. */
const RUN_FACTS = /^(baseline_version|module_version|date|timestamp_zulu|report_uuid|scuba_config)$|_(un)?successful_commands$/;
const COMMANDS = /^(.+)_successful_commands$/;

function looksLikeScubaExport(doc: JsonObject): boolean {
  return typeof doc.module_version === 'string' && Object.keys(doc).some((k) => COMMANDS.test(k));
}

/** `m365:<product>/<section>` for every settings section (run facts left out). */
function m365Resources(doc: unknown): Found[] {
  if (!isObject(doc)) return [];
  const keys = Object.keys(doc);
  const found: Found[] = [];
  keys.forEach((section, i) => {
    if (RUN_FACTS.test(section)) return;
    const product = PRODUCT_OF.get(section) ?? nextMarkerProduct(keys, i) ?? 'tenant';
    found.push({ id: `m365:${product}/${section}`, kind: `m365-${product}-settings`, category: m365Category(section), content: doc[section] });
  });
  return found;
}

function nextMarkerProduct(keys: readonly string[], from: number): string | undefined {
  for (let i = from + 1; i < keys.length; i++) {
    const marker = COMMANDS.exec(keys[i]);
    if (marker && !keys[i].endsWith('_unsuccessful_commands')) return MARKER_PRODUCT[marker[1].toLowerCase()] ?? marker[1].toLowerCase();
  }
  return undefined;
}

/**
 * By section name, first rule that matches: conditional access, authorization, roles, permissions, sharing,
 * federation, tenant isolation, app policies → access; users, service principals, authentication, directory
 * and domain settings → identity; mail and network routing (domains, SPF/DKIM/DMARC, connectors, transport) →
 * network; DLP, protection and ATP policies, audit, SharePoint/OneDrive tenant settings → data; else other.
 */
export function m365Category(section: string): ResourceCategory {
  const s = section.toLowerCase();
  if (/conditional_access|cap_table|authorization|role|permission|sharing|federation|isolation|app_policies|relationship/.test(s)) return 'access';
  if (/user|service_principal|authentication|directory|domain_settings|tenant_details|risky_app/.test(s)) return 'identity';
  if (/domain|spf|dkim|dmarc|connector|transport|conn_filter/.test(s)) return 'network';
  if (/dlp|protection|atp|audit|phish|spo_|onedrive/.test(s)) return 'data';
  return 'other';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
