/**
 * `compliance-evidence-service` (DESIGN: "domain + use cases"; docs/library.md): the rules of the domain as plain
 * functions, and the use cases the CLI runs, resolved from `createContainer()` with the same adapters. The
 * enforcement runtime has its own entry, `compliance-evidence-service/enforcement`.
 */
export { createContainer } from './services-container';

// Use cases: `createContainer().resolve(BuildAuditorBundle).execute({ input, outDir })`.
export { TransformBaseline } from '../../application/pipeline/transform-baseline';
export { BuildAuditorBundle } from '../../application/pipeline/build-auditor-bundle';
export { DiffRuns } from '../../application/drift/diff-runs';
export { DetectDrift } from '../../application/drift/detect-drift';
export { CheckFreshness } from '../../application/freshness/check-freshness';
export { ExportPoam } from '../../application/poam/export-poam';
export { BuildEvidenceBundle } from '../../application/evidence/build-evidence-bundle';
export { TraceEvidence } from '../../application/evidence/trace-evidence';
/** @deprecated since 0.6.0: the same use case as TraceEvidence, under its 0.5.0 name. */
export { TraceEvidence as TraceEvidenceGraph } from '../../application/evidence/trace-evidence';
export { ListKsis } from '../../application/catalog/list-ksis';
export { EvaluateKsis } from '../../application/catalog/evaluate-ksis';
export { CheckCanon } from '../../application/catalog/check-canon';
export { RunAdapter } from '../../application/adapters/run-adapter';
export { ListVendors } from '../../application/adapters/list-vendors';
export { GenerateOscal } from '../../application/oscal/generate-oscal';
export { GenerateSar } from '../../application/oscal/generate-sar';
export { ValidateOscal } from '../../application/oscal/validate-oscal';
export { ValidateArtifacts } from '../../application/oscal/validate-artifacts';
export { ValidateFedrampSsp } from '../../application/oscal/validate-fedramp-ssp';
export { ProcessRun } from '../../application/conmon/process-run';
export { ExportOngoingAuthorization } from '../../application/conmon/export-ongoing-authorization';
export { RunQuery } from '../../application/cql/run-query';
export { WalkSubstrate } from '../../application/substrate/walk-substrate';
export { CompareSnapshots } from '../../application/substrate/compare-snapshots';
export { RunSurvey } from '../../application/survey/run-survey';
export { SurveyFindings } from '../../application/survey/survey-findings';
export { ListFedrampRules } from '../../application/fedramp/list-fedramp-rules';
export { ListCr26Ksis } from '../../application/fedramp/list-cr26-ksis';
export { CheckCr26Freshness } from '../../application/freshness/check-cr26-freshness';
export { ValidateFedrampDocument } from '../../application/fedramp/validate-fedramp-document';

// The domain: pure rules over plain data.
export { readNormalizedReport } from '../../domain/ksi/ksi-result';
export type { KsiResult, NormalizedReport, Check, ReportSource } from '../../domain/ksi/ksi-result';
export { STATUSES, countStatuses } from '../../domain/ksi/status';
export type { Status } from '../../domain/ksi/status';
export { assess } from '../../domain/assessment/assessment';
export type { AssessedResult, Assessment, RunCounts } from '../../domain/assessment/assessment';
export { decideAction } from '../../domain/governance/governance-policy';
export type { GovernanceAction, GovernancePolicy } from '../../domain/governance/governance-policy';
export { SEVERITIES } from '../../domain/governance/severity';
export type { Severity } from '../../domain/governance/severity';
export { poamRow } from '../../domain/artifacts/poam';
export type { PoamRow } from '../../domain/artifacts/poam';
export { detectDrift } from '../../domain/drift/drift-detection';
export type { DriftFinding, DriftClass, DriftSeverity } from '../../domain/drift/drift-finding';
export { merkleRoot, inclusionProof, rootFromProof } from '../../domain/evidence/merkle';
export { normalizeControlId } from '../../domain/catalog/ksi-catalog';
export { evaluateCr26Ksis } from '../../domain/fedramp/ksi-evaluation';
export {
  AppError,
  InvalidInputError,
  NotFoundError,
  ConflictError,
  IntegrityError,
  PermissionError,
  UnavailableError,
  ConfigError,
  UsageError,
} from '../../domain/errors';
export type { ErrorKind } from '../../domain/errors';
