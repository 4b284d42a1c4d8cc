import type { OscalValidation } from '../../application/oscal/validate-oscal';
import type { ArtifactValidation } from '../../application/oscal/validate-artifacts';
import type { OscalProblem, ProblemLayer } from '../../domain/oscal/oscal-problem';
import { plural } from '../../domain/encoding/plural';

const LAYERS: Record<ProblemLayer, string> = { schema: 'Schema', references: 'References', fedramp: 'FedRAMP SSP rules' };
/** Lines shown per rule before the rest are counted; --json lists every one. */
const FOLD = 25;

/** `oscal validate` / `validate-ssp` for people: what was judged by what, problems grouped by layer, a verdict. */
export function validationText(v: OscalValidation): string {
  const baseline = v.baseline
    ? ` and the ${v.baseline.title}${v.baseline.chosen === 'document' ? ' (its own)' : v.baseline.chosen === 'default' ? ' (default; --baseline picks another)' : ''}`
    : '';
  const lines = [`${v.file}: OSCAL ${v.oscalVersion ?? '(no oscal-version)'} ${v.model}, judged by the ${v.schemaVersion} schemas${baseline}`];
  for (const layer of Object.keys(LAYERS) as ProblemLayer[]) {
    const problems = v.problems.filter((p) => p.layer === layer);
    if (problems.length === 0) continue;
    lines.push(`${LAYERS[layer]} (${tally(problems)}):`);
    const shown = new Map<string, number>();
    for (const p of problems) {
      const n = (shown.get(p.rule) ?? 0) + 1;
      shown.set(p.rule, n);
      if (n <= FOLD) lines.push(`  ${p.level === 'warning' ? 'warning: ' : ''}${p.path}: ${p.message}${layer === 'schema' ? '' : ` [${p.rule}]`}`);
    }
    for (const [rule, n] of shown) if (n > FOLD) lines.push(`  ... and ${n - FOLD} more [${rule}] (--json lists every one)`);
  }
  lines.push(v.valid ? `Valid${v.warnings > 0 ? ` (${plural(v.warnings, 'warning')})` : ''}` : `Invalid: ${tally(v.problems)}`);
  return lines.join('\n');
}

function tally(problems: readonly OscalProblem[]): string {
  const warnings = problems.filter((p) => p.level === 'warning').length;
  const errors = problems.length - warnings;
  return [errors > 0 || warnings === 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
}

/** `ir validate` for people. */
export function artifactValidationText(v: ArtifactValidation): string {
  if (v.kind === 'bundle')
    return [`Bundle ${v.target} verified`, `Files: ${v.files} (aggregate ${v.aggregateHash})`, `Entries: ${v.entries} (Merkle root ${v.merkleRoot})`].join(
      '\n',
    );
  if (v.kind === 'evidence-bundle') return [`Evidence bundle ${v.target} verified`, `Entries: ${v.entries} (Merkle root ${v.merkleRoot})`].join('\n');
  if (v.kind === 'fedramp-package') {
    return [
      `FedRAMP certification package ${v.target} verified${v.fedRampPackageId === undefined ? '' : ` (${v.fedRampPackageId}, ${v.generatedAt})`}`,
      `Files: ${v.files} (aggregate ${v.aggregateHash})`,
      `Signature: ${v.algorithm} by key ${v.keyid}`,
    ].join('\n');
  }
  const oscal = 'skipped' in v.oscal ? `OSCAL: schema validation skipped: ${v.oscal.skipped}` : validationText(v.oscal);
  return [
    `SAR ${v.target} verified`,
    `Digest: ${v.sha256}${v.canonical ? '' : ' (of its canonical form; the file itself is formatted differently)'}`,
    `Signature: ${v.algorithm} by key ${v.keyid} (${v.envelope})`,
    oscal,
  ].join('\n');
}

export type OscalValidationJson = Omit<OscalValidation, 'oscalVersion' | 'schemaVersion' | 'schemaDir' | 'schema' | 'carried'> & {
  oscal_version?: string;
  schema_version: string;
  schema: string;
  schema_sha256: string;
  schema_dir: string;
  schemas_carried?: true;
};

/** `oscal validate` / `validate-ssp --json`: snake_case keys (docs/cli.md); the schema file that judged by its sha256. */
export function validationJson({ file, model, oscalVersion, schemaVersion, schemaDir, schema, carried, ...v }: OscalValidation): OscalValidationJson {
  return {
    file,
    model,
    ...(oscalVersion !== undefined && { oscal_version: oscalVersion }),
    schema_version: schemaVersion,
    schema: schema.file,
    schema_sha256: schema.sha256,
    schema_dir: schemaDir,
    ...(carried ? { schemas_carried: true as const } : {}),
    ...v,
  };
}

export type ArtifactValidationJson =
  | { kind: 'bundle'; target: string; files: number; aggregate_hash: string; entries: number; merkle_root: string }
  | { kind: 'evidence-bundle'; target: string; entries: number; merkle_root: string }
  | {
      kind: 'fedramp-package';
      target: string;
      files: number;
      aggregate_hash: string;
      algorithm: string;
      keyid: string;
      fedramp_id?: string;
      generated_at: string;
    }
  | (Omit<Extract<ArtifactValidation, { kind: 'sar' }>, 'oscal'> & { oscal: OscalValidationJson | { skipped: string } });

/** `ir validate --json`: snake_case keys (docs/cli.md). */
export function artifactValidationJson(v: ArtifactValidation): ArtifactValidationJson {
  if (v.kind === 'bundle')
    return { kind: v.kind, target: v.target, files: v.files, aggregate_hash: v.aggregateHash, entries: v.entries, merkle_root: v.merkleRoot };
  if (v.kind === 'evidence-bundle') return { kind: v.kind, target: v.target, entries: v.entries, merkle_root: v.merkleRoot };
  if (v.kind === 'fedramp-package') {
    const { aggregateHash, fedRampPackageId, generatedAt, ...rest } = v;
    return { ...rest, aggregate_hash: aggregateHash, ...(fedRampPackageId === undefined ? {} : { fedramp_id: fedRampPackageId }), generated_at: generatedAt };
  }
  return { ...v, oscal: 'skipped' in v.oscal ? v.oscal : validationJson(v.oscal) };
}
