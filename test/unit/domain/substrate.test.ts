import { createHash } from 'node:crypto';
import type { InvalidInputError } from '../../../src/domain/errors';
import {
  disambiguate,
  extractResources,
  kubernetesCategory,
  m365Category,
  structuredFormat,
  terraformCategory,
  topLevelKeys,
} from '../../../src/domain/substrate/resource-extraction';
import { buildSnapshot, parseSnapshot, type Snapshot, type SnapshotFile, type SnapshotResource } from '../../../src/domain/substrate/snapshot';
import { compareSnapshots, countSubstrateDrift, gatesOn, substrateDriftMarkdown } from '../../../src/domain/substrate/substrate-drift';
import { snapshotOf, type TreeFile } from '../../../src/domain/substrate/tree-snapshot';
import { PureJsHashing } from '../../fakes/pure-js-hashing';

const digest = new PureJsHashing();
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const hashOf = (value: unknown) => digest.sha256(digest.canonicalize(value));

const STATE = {
  version: 4,
  terraform_version: '1.9.5',
  resources: [
    { mode: 'managed', type: 'aws_iam_role', name: 'admin', instances: [{ attributes: { name: 'admin', max_session_duration: 3600 }, private: 'xyz' }] },
    {
      mode: 'managed',
      type: 'aws_s3_bucket',
      name: 'logs',
      instances: [
        { index_key: 0, attributes: { bucket: 'l0' } },
        { index_key: 1, attributes: { bucket: 'l1' } },
      ],
    },
    {
      module: 'module.net',
      mode: 'managed',
      type: 'azurerm_role_assignment',
      name: 'ops',
      instances: [{ index_key: 'reader', attributes: { role: 'Reader' } }],
    },
    { mode: 'data', type: 'aws_caller_identity', name: 'me', instances: [{ attributes: { account_id: '1' } }] },
  ],
};

describe('resource extraction', () => {
  it('names Terraform instances by their address and hashes their attributes only', () => {
    const resources = extractResources({ path: 'tf/main.tfstate', format: 'terraform-state', documents: [STATE] }, digest);
    expect(resources).toEqual([
      {
        id: 'terraform:aws_iam_role.admin',
        kind: 'aws_iam_role',
        file: 'tf/main.tfstate',
        sha256: hashOf({ name: 'admin', max_session_duration: 3600 }),
        category: 'access',
      },
      { id: 'terraform:aws_s3_bucket.logs[0]', kind: 'aws_s3_bucket', file: 'tf/main.tfstate', sha256: hashOf({ bucket: 'l0' }), category: 'data' },
      { id: 'terraform:aws_s3_bucket.logs[1]', kind: 'aws_s3_bucket', file: 'tf/main.tfstate', sha256: hashOf({ bucket: 'l1' }), category: 'data' },
      {
        id: 'terraform:module.net.azurerm_role_assignment.ops["reader"]',
        kind: 'azurerm_role_assignment',
        file: 'tf/main.tfstate',
        sha256: hashOf({ role: 'Reader' }),
        category: 'access',
      },
      {
        id: 'terraform:data.aws_caller_identity.me',
        kind: 'aws_caller_identity',
        file: 'tf/main.tfstate',
        sha256: hashOf({ account_id: '1' }),
        category: 'identity',
      },
    ]);
    expect(extractResources({ path: 's.tfstate', format: 'terraform-state', documents: [{ ...STATE, version: 3 }] }, digest)).toEqual([]);
  });

  it('hashes content canonically: key order does not change a resource hash', () => {
    const reordered = {
      ...STATE,
      resources: [{ instances: [{ attributes: { max_session_duration: 3600, name: 'admin' } }], name: 'admin', type: 'aws_iam_role', mode: 'managed' }],
    };
    const [first] = extractResources({ path: 'a', format: 'terraform-state', documents: [STATE] }, digest);
    const [second] = extractResources({ path: 'a', format: 'terraform-state', documents: [reordered] }, digest);
    expect(second.sha256).toBe(first.sha256);
  });

  it('categorises Terraform types: grants before identities, then networks and stores', () => {
    const types = [
      'aws_iam_role',
      'aws_iam_policy',
      'aws_iam_user_policy',
      'google_project_iam_member',
      'azurerm_role_definition',
      'aws_iam_user',
      'azuread_user',
      'azuread_group',
      'google_service_account',
      'aws_iam_group',
      'aws_security_group',
      'azurerm_virtual_network',
      'google_compute_firewall',
      'aws_s3_bucket',
      'aws_db_instance',
      'aws_kms_key',
      'azurerm_key_vault',
      'aws_instance',
    ];
    expect(Object.fromEntries(types.map((t) => [t, terraformCategory(t)]))).toEqual({
      aws_iam_role: 'access',
      aws_iam_policy: 'access',
      aws_iam_user_policy: 'access',
      google_project_iam_member: 'access',
      azurerm_role_definition: 'access',
      aws_iam_user: 'identity',
      azuread_user: 'identity',
      azuread_group: 'identity',
      google_service_account: 'identity',
      aws_iam_group: 'access',
      aws_security_group: 'network',
      azurerm_virtual_network: 'network',
      google_compute_firewall: 'network',
      aws_s3_bucket: 'data',
      aws_db_instance: 'data',
      aws_kms_key: 'data',
      azurerm_key_vault: 'data',
      aws_instance: 'other',
    });
  });

  it('names Kubernetes objects by apiVersion, kind, namespace and name, leaving status and server fields out of the hash', () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'ops', namespace: 'prod' },
      roleRef: { kind: 'ClusterRole', name: 'admin' },
    };
    const live = {
      ...binding,
      metadata: { ...binding.metadata, resourceVersion: '9', uid: 'u', creationTimestamp: 't', managedFields: [] },
      status: { ok: true },
    };
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'admin' }, rules: [] };
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'prod' }, data: { password: 'c2VjcmV0' } };
    const resources = extractResources({ path: 'k.yaml', format: 'kubernetes', documents: [binding, null, { kind: 'NotAnObject' }, role, secret] }, digest);
    expect(resources.map(({ id, kind, category }) => ({ id, kind, category }))).toEqual([
      { id: 'k8s:rbac.authorization.k8s.io/v1/RoleBinding/prod/ops', kind: 'RoleBinding', category: 'access' },
      { id: 'k8s:rbac.authorization.k8s.io/v1/ClusterRole/-/admin', kind: 'ClusterRole', category: 'access' },
      { id: 'k8s:v1/Secret/prod/db', kind: 'Secret', category: 'data' },
    ]);
    expect(JSON.stringify(resources)).not.toContain('c2VjcmV0');
    const [fromLive] = extractResources({ path: 'k.yaml', format: 'kubernetes', documents: [live] }, digest);
    expect(fromLive.sha256).toBe(resources[0].sha256);
    expect(['ServiceAccount', 'NetworkPolicy', 'PersistentVolumeClaim', 'Deployment'].map(kubernetesCategory)).toEqual([
      'identity',
      'network',
      'data',
      'other',
    ]);
  });

  it('makes one resource per M365 settings section, leaving out the facts of the export run', () => {
    const exported = {
      module_version: '1.8.0',
      timestamp_zulu: '2026-05-04T17:15:48Z',
      conditional_access_policies: [{ State: 'enabled' }],
      new_aad_section: { x: 1 },
      aad_successful_commands: [],
      aad_unsuccessful_commands: [],
      spf_records: [],
      exo_successful_commands: [],
      trailing_section: 1,
    };
    const resources = extractResources({ path: 'ProviderSettingsExport.json', format: 'm365-settings', documents: [exported] }, digest);
    expect(resources.map(({ id, kind, category }) => `${id} ${kind} ${category}`)).toEqual([
      'm365:aad/conditional_access_policies m365-aad-settings access',
      'm365:aad/new_aad_section m365-aad-settings other',
      'm365:exo/spf_records m365-exo-settings network',
      'm365:tenant/trailing_section m365-tenant-settings other',
    ]);
    expect(
      ['privileged_roles', 'privileged_users', 'authentication_method', 'dkim_records', 'dlp_compliance_policies', 'meeting_policies'].map(m365Category),
    ).toEqual(['access', 'identity', 'identity', 'network', 'data', 'other']);
  });

  it('detects formats from the name and the content', () => {
    expect(structuredFormat('x/terraform.tfstate', 'json', [{}])).toBe('terraform-state');
    expect(structuredFormat('state.json', 'json', [{ terraform_version: '1.9.0' }])).toBe('terraform-state');
    expect(structuredFormat('a.yaml', 'yaml', [{ a: 1 }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }])).toBe('kubernetes');
    expect(structuredFormat('pod.json', 'json', [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }])).toBe('kubernetes');
    expect(structuredFormat('out/ProviderSettingsExport.json', 'json', [{}])).toBe('m365-settings');
    expect(structuredFormat('renamed.json', 'json', [{ module_version: '1.8.0', teams_successful_commands: [] }])).toBe('m365-settings');
    expect(structuredFormat('a.json', 'json', [[1]])).toBe('json');
    expect(structuredFormat('a.yml', 'yaml', [{ a: 1 }])).toBe('yaml');
    expect(topLevelKeys([{ b: 1, a: 2 }, { c: 3 }, 'text'])).toEqual(['a', 'b', 'c']);
    expect(topLevelKeys([[1, 2]])).toBeUndefined();
  });

  it('appends the file, then a counter, to ids that would repeat', () => {
    const r = (id: string, file: string): SnapshotResource => ({ id, kind: 'k', file, sha256: sha(id + file), category: 'other' });
    expect(disambiguate([r('a', 'x'), r('b', 'x'), r('a', 'y'), r('c', 'z'), r('c', 'z')]).map((x) => x.id)).toEqual(['a@x', 'b', 'a@y', 'c@z#1', 'c@z#2']);
  });
});

const file = (path: string, content: string, extra: Partial<SnapshotFile> = {}): SnapshotFile => ({
  path,
  sha256: sha(content),
  bytes: content.length,
  format: 'text',
  ...extra,
});

describe('snapshots', () => {
  it('sorts by code units and roots an RFC 6962 tree over sha256("<path>\\0<hex>") leaves', () => {
    const files = [file('b.txt', 'b'), file('B.txt', 'B'), file('a/z.txt', 'z')];
    const snapshot = buildSnapshot({ root: 'tree', files, resources: [], skipped: [{ path: 'link', reason: 'broken symbolic link' }] }, digest);
    expect(snapshot.files.map((f) => f.path)).toEqual(['B.txt', 'a/z.txt', 'b.txt']);
    const leaf = (f: SnapshotFile) => createHash('sha256').update(`${f.path}\0${f.sha256}`).digest();
    const [l0, l1, l2] = snapshot.files.map(leaf);
    const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    const expected = h(Buffer.from([1]), h(Buffer.from([1]), h(Buffer.from([0]), l0), h(Buffer.from([0]), l1)), h(Buffer.from([0]), l2)).toString('hex');
    expect(snapshot.merkle_root).toBe(expected);
    expect(snapshot.counts).toEqual({ files: 3, bytes: 3, resources: 0, categories: { identity: 0, access: 0, network: 0, data: 0, other: 0 }, skipped: 1 });
    expect(
      buildSnapshot({ root: 'tree', files: [...files].reverse(), resources: [], skipped: [{ path: 'link', reason: 'broken symbolic link' }] }, digest),
    ).toEqual(snapshot);
    expect(buildSnapshot({ root: 'empty', files: [], resources: [], skipped: [] }, digest).merkle_root).toBe(sha(''));
  });

  it('reads back what it wrote, and refuses anything else with the JSON path and the fix', () => {
    const tree: TreeFile[] = [{ path: 's.tfstate', sha256: sha('s'), bytes: 1, format: 'terraform-state', documents: [STATE] }];
    const snapshot = snapshotOf({ root: 'tree', files: tree, skipped: [], unparsed: [] }, digest);
    expect(snapshot.files[0].top_level_keys).toEqual(['resources', 'terraform_version', 'version']);
    expect(snapshot.counts.categories).toEqual({ identity: 1, access: 2, network: 0, data: 2, other: 0 });
    const roundTrip = JSON.parse(digest.canonicalize(snapshot)) as Snapshot;
    expect(parseSnapshot(roundTrip, 'a.json', digest)).toEqual(snapshot);
    const refused = (doc: unknown) => {
      try {
        parseSnapshot(doc, 'a.json', digest);
      } catch (error) {
        return `${(error as Error).constructor.name} ${(error as InvalidInputError).code}: ${(error as Error).message}`;
      }
      return 'accepted';
    };
    expect(refused([])).toBe(
      'InvalidInputError invalid-snapshot: a.json: $: expected an object, found an array; pass a snapshot written by svc substrate walk',
    );
    expect(refused({ ...roundTrip, schema: 'other' })).toBe(
      'InvalidInputError invalid-snapshot: a.json: schema: expected "svc.substrate-snapshot/v1", found "other"; pass a snapshot written by svc substrate walk',
    );
    expect(refused({ ...roundTrip, resources: [{ ...roundTrip.resources[0], category: 'secret' }] })).toBe(
      'InvalidInputError invalid-snapshot: a.json: resources[0].category: expected one of identity, access, network, data, other, found "secret"; pass a snapshot written by svc substrate walk',
    );
    expect(refused({ ...roundTrip, resources: [roundTrip.resources[1], roundTrip.resources[0]] })).toMatch(
      /^InvalidInputError invalid-snapshot: a\.json: resources\[1\]\.id: not after "terraform:aws_s3_bucket\.logs\[0\]"/,
    );
    expect(refused({ ...roundTrip, files: [{ ...roundTrip.files[0], sha256: sha('t') }] })).toBe(
      `IntegrityError snapshot-root-mismatch: a.json: merkle_root ${snapshot.merkle_root} is not the root of its files (${buildSnapshot({ root: 'tree', files: [{ ...snapshot.files[0], sha256: sha('t') }], resources: [], skipped: [] }, digest).merkle_root}); the snapshot was altered: walk the tree again`,
    );
  });
});

describe('substrate drift', () => {
  const res = (id: string, category: SnapshotResource['category'], content: string, path = 'f.json'): SnapshotResource => ({
    id,
    kind: 'k',
    file: path,
    sha256: sha(content),
    category,
  });
  const before = buildSnapshot(
    {
      root: 'a',
      files: [
        file('f.json', '1', { format: 'json', top_level_keys: ['x'] }),
        file('g.json', '1', { format: 'json', top_level_keys: ['y'] }),
        file('notes.txt', '1'),
        file('old.txt', 'o'),
        file('same.txt', 's'),
      ],
      resources: [
        res('id:user', 'identity', 'u'),
        res('id:role', 'access', 'r'),
        res('id:gone', 'access', 'g'),
        res('id:vpc', 'network', 'v'),
        res('id:moved', 'other', 'm', 'g.json'),
      ],
      skipped: [],
    },
    digest,
  );
  const after = buildSnapshot(
    {
      root: 'b',
      files: [
        file('f.json', '2', { format: 'json', top_level_keys: ['x'] }),
        file('g.json', '2', { format: 'yaml', top_level_keys: ['y', 'z'] }),
        file('notes.txt', '2'),
        file('new.txt', 'n'),
        file('same.txt', 's'),
      ],
      resources: [
        res('id:user', 'identity', 'u2'),
        res('id:role', 'access', 'r2'),
        res('id:vpc', 'network', 'v2'),
        res('id:new', 'identity', 'n'),
        res('id:moved', 'other', 'm', 'f.json'),
      ],
      skipped: [],
    },
    digest,
  );

  it('classifies resource and file changes, ordered by severity then subject', () => {
    const findings = compareSnapshots(before, after);
    expect(findings.map((f) => `${f.severity} ${f.class} ${f.subject} ${f.change}: ${f.reason}`)).toEqual([
      'P1 DRIFT-AUTHZ id:gone removed: access resource removed (was in f.json)',
      'P2 DRIFT-IDENTITY id:new added: identity resource added in f.json',
      `P2 DRIFT-AUTHZ id:role changed: access resource changed: content hash ${sha('r').slice(0, 12)} -> ${sha('r2').slice(0, 12)}`,
      `P2 DRIFT-IDENTITY id:user changed: identity resource changed: content hash ${sha('u').slice(0, 12)} -> ${sha('u2').slice(0, 12)}`,
      'P3 DRIFT-SCHEMA file:g.json changed: format json -> yaml; top-level keys added: z',
      'P3 DRIFT-SCHEMA file:new.txt added: file added (text, 0 resources)',
      'P3 DRIFT-SCHEMA file:old.txt removed: file removed (text, 0 resources)',
      `P3 DRIFT-SEMANTIC id:vpc changed: network resource changed: content hash ${sha('v').slice(0, 12)} -> ${sha('v2').slice(0, 12)}`,
      `P4 DRIFT-PROVENANCE file:notes.txt changed: content changed (sha256 ${sha('1').slice(0, 12)} -> ${sha('2').slice(0, 12)}) but no resource in it did`,
      'P4 DRIFT-PROVENANCE id:moved moved: moved from g.json to f.json, content unchanged',
    ]);
    expect(countSubstrateDrift(findings)).toEqual({
      total: 10,
      severity: { P1: 1, P2: 3, P3: 4, P4: 2 },
      class: { 'DRIFT-IDENTITY': 2, 'DRIFT-AUTHZ': 2, 'DRIFT-SEMANTIC': 1, 'DRIFT-PROVENANCE': 2, 'DRIFT-SCHEMA': 3 },
    });
    expect([gatesOn(findings, 'P1'), gatesOn(findings.slice(1), 'P1'), gatesOn(findings, undefined)]).toEqual([true, false, false]);
    expect(compareSnapshots(before, before)).toEqual([]);
  });

  it('prints a Markdown table with a counts line, or says there is no drift', () => {
    const findings = compareSnapshots(before, after).slice(0, 1);
    expect(substrateDriftMarkdown(findings, { name: 'a.json', snapshot: before }, { name: 'b|c', snapshot: after })).toBe(
      [
        '# Substrate drift: a.json -> b\\|c',
        '',
        `Snapshot A: a.json (5 files, merkle root ${before.merkle_root})`,
        `Snapshot B: b\\|c (5 files, merkle root ${after.merkle_root})`,
        '',
        '| Severity | Class | Subject | Change | Reason |',
        '|---|---|---|---|---|',
        '| P1 | DRIFT-AUTHZ | id:gone | removed | access resource removed (was in f.json) |',
        '',
        'Findings: 1 (P1 1, P2 0, P3 0, P4 0)',
        '',
      ].join('\n'),
    );
    expect(substrateDriftMarkdown([], { name: 'a', snapshot: before }, { name: 'a', snapshot: before })).toContain(
      '\nNo drift: the snapshots hold the same files and resources.\n\nFindings: 0 (P1 0, P2 0, P3 0, P4 0)\n',
    );
  });
});
