import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { ListEvidence } from '../../../application/auditor/list-evidence';
import { ListFindings } from '../../../application/auditor/list-findings';
import { ListPoamItems } from '../../../application/auditor/list-poam-items';
import { ReadRunDocument } from '../../../application/auditor/read-run-document';
import { DSSE_TYPE, MANIFEST_DOCUMENT } from '../../../application/conmon/run-documents';
import { TraceControl } from '../../../application/auditor/trace-control';
import { OSCAL_KINDS, type OscalKind } from '../../../application/oscal/generate-oscal';
import { SEVERITIES } from '../../../domain/governance/severity';
import { sendStoredDocument } from '../responses/representation';
import type { ReplayCache } from '../responses/response-cache';
import type { RouteSpec } from './route';
import { DIGEST, EVIDENCE_ENTRY, KSI_ID, listOf, pageOf, PAGING_PARAMETERS, query, RUN_REF } from './schemas';

const AUDITOR = ['auditor'] as const;

const ACTION = {
  type: 'object',
  required: ['action', 'ksi_id', 'severity', 'owner', 'sla_days'],
  properties: {
    action: { enum: ['REMEDIATE', 'MONITOR'] },
    ksi_id: { type: 'string' },
    severity: { enum: [...SEVERITIES] },
    owner: { type: 'string' },
    sla_days: { type: 'integer' },
  },
};

const FINDING = {
  type: 'object',
  required: ['ksi_id', 'status', 'controls', 'action', 'poam_id', 'content_hash'],
  properties: {
    ksi_id: { type: 'string' },
    status: { enum: ['WARN', 'FAIL'] },
    title: { type: ['string', 'null'] },
    details: { type: ['string', 'null'] },
    observed_at: { type: ['string', 'null'] },
    controls: { type: 'array', items: { type: 'string' } },
    action: ACTION,
    poam_id: { type: ['string', 'null'] },
    content_hash: DIGEST,
  },
};

const POAM_ITEM = {
  type: 'object',
  description: 'A POA&M row (FedRAMP template fields) with its lifecycle state.',
  required: ['poam_id', 'ksi_id', 'status', 'overdue', 'original_detection_date', 'scheduled_completion_date', 'risk_rating'],
  properties: {
    poam_id: { type: 'string' },
    ksi_id: { type: 'string' },
    status: { enum: ['Open', 'Closed'] },
    overdue: { type: 'boolean' },
    risk_rating: { enum: ['Critical', 'High', 'Moderate', 'Low'] },
    original_detection_date: { type: 'string', format: 'date' },
    scheduled_completion_date: { type: 'string', format: 'date' },
    completion_date: { type: 'string', format: 'date' },
  },
};

const MANIFEST = {
  type: 'object',
  required: ['run', 'recorded_at', 'input', 'counts', 'evidence_bundle', 'artifacts'],
  properties: {
    run: RUN_REF,
    recorded_at: { type: 'string', format: 'date-time' },
    input: { type: 'object', required: ['name', 'sha256'], properties: { name: { type: 'string' }, sha256: DIGEST } },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    evidence_bundle: {
      type: 'object',
      required: ['sha256', 'entries', 'href'],
      properties: { sha256: DIGEST, entries: { type: 'integer' }, href: { type: 'string' } },
    },
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'href', 'media_type', 'sha256', 'bytes'],
        properties: { name: { type: 'string' }, href: { type: 'string' }, media_type: { type: 'string' }, sha256: DIGEST, bytes: { type: 'integer' } },
      },
    },
  },
};

const GRAPH = {
  type: 'object',
  required: ['run', 'control', 'merkle_root', 'nodes', 'edges'],
  properties: {
    run: RUN_REF,
    control: { type: 'string' },
    merkle_root: DIGEST,
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'label'],
        properties: {
          id: { type: 'string' },
          type: { enum: ['control', 'ksi', 'policy', 'evidence', 'action', 'poam'] },
          label: { type: 'string' },
          proof: { type: 'object' },
        },
      },
    },
    edges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['from', 'to', 'relation'],
        properties: { from: { type: 'string' }, to: { type: 'string' }, relation: { type: 'string' } },
      },
    },
  },
};

const ARTIFACT_HEADERS = {
  ETag: { description: 'Strong validator: the hex SHA-256 of the body, quoted.', schema: { type: 'string' } },
  'Content-Digest': { description: 'RFC 9530 `sha-256=:<base64>:` of the body.', schema: { type: 'string' } },
};

const OSCAL_TITLES: Record<OscalKind, string> = {
  ssp: 'System Security Plan',
  sar: 'Security Assessment Results',
  sap: 'Security Assessment Plan',
  poam: 'Plan of Action and Milestones',
};

/** The nine read routes of the current run for assessors (role `auditor`). */
export function auditorRoutes(container: DependencyContainer, replay: ReplayCache, logger: Logger): RouteSpec[] {
  const evidence = container.resolve(ListEvidence);
  const findings = container.resolve(ListFindings);
  const poam = container.resolve(ListPoamItems);
  const documents = container.resolve(ReadRunDocument);
  const trace = container.resolve(TraceControl);
  /** A stored document streams from the store: one changed behind svc's back is cut off mid-response and logged. */
  const logDocumentFailure = (requestId: string, error: unknown) =>
    logger.error(
      { req_id: requestId, err: { code: (error as { code?: string }).code, message: (error as Error).message } },
      'stored document failed while it was sent',
    );
  const stream = async (res: Parameters<RouteSpec['handle']>[1], requestId: string, name: string, contentType: string) =>
    sendStoredDocument(res.req, res, await documents.execute({ name }), contentType, (error) => logDocumentFailure(requestId, error));
  const base = { module: 'auditor', method: 'get', access: AUDITOR } as const;
  return [
    {
      ...base,
      path: '/auditor/evidence',
      operationId: 'listEvidence',
      summary: "The current run's evidence entries",
      description: 'Evidence entries of the latest recorded run, exactly as recorded, in ksi_id order; filter by KSI and status, page with limit and cursor.',
      query: query({
        ksi: listOf(KSI_ID, 'Only these KSI ids.'),
        status: listOf({ enum: ['PASS', 'WARN', 'FAIL'] }, 'Only these statuses.'),
        ...PAGING_PARAMETERS,
      }),
      responses: { 200: { description: 'A page of evidence entries.', schema: pageOf(EVIDENCE_ENTRY, 'Evidence entries of the current run.') } },
      async handle({ query: q }, res) {
        const page = await evidence.execute(q);
        replay.sendJson(res.req, res, page.run.id, { path: '/auditor/evidence', roles: AUDITOR }, () => page);
      },
    },
    {
      ...base,
      path: '/auditor/findings',
      operationId: 'listFindings',
      summary: 'FAIL and WARN results with their governance actions',
      description: 'The FAIL and WARN results of the current run, each with its action (severity, owner, SLA) and POA&M id; filter by status and severity.',
      query: query({
        status: listOf({ enum: ['WARN', 'FAIL'] }, 'Only these statuses.'),
        severity: listOf({ enum: [...SEVERITIES] }, 'Only actions of these severities.'),
        ...PAGING_PARAMETERS,
      }),
      responses: { 200: { description: 'A page of findings.', schema: pageOf(FINDING, 'Findings of the current run.') } },
      async handle({ query: q }, res) {
        const page = await findings.execute(q);
        replay.sendJson(res.req, res, page.run.id, { path: '/auditor/findings', roles: AUDITOR }, () => page);
      },
    },
    {
      ...base,
      path: '/auditor/poam',
      operationId: 'listPoamItems',
      summary: 'POA&M items after the current run',
      description: 'Every POA&M item the continuous-monitoring lifecycle tracks after the current run, open and closed, in poam_id order.',
      query: query({
        status: { enum: ['Open', 'Closed'], description: 'Only open or only closed items.' },
        overdue: { type: 'boolean', description: 'Only overdue (true) or only on-time (false) items.' },
        ...PAGING_PARAMETERS,
      }),
      responses: { 200: { description: 'A page of POA&M items.', schema: pageOf(POAM_ITEM, 'POA&M items.') } },
      async handle({ query: q }, res) {
        const page = await poam.execute(q);
        replay.sendJson(res.req, res, page.run.id, { path: '/auditor/poam', roles: AUDITOR }, () => page);
      },
    },
    {
      ...base,
      path: '/auditor/manifest',
      operationId: 'getManifest',
      summary: 'The current run with the digest of every artifact',
      description:
        "The current run's id, input, counts, its evidence bundle digest, and the SHA-256 of each OSCAL document and of the SAR's DSSE envelope as these routes serve them.",
      responses: {
        200: { description: 'The manifest, stored with the run when it was recorded.', schema: MANIFEST, headers: ARTIFACT_HEADERS },
        304: { description: 'If-None-Match matched the ETag.', contentType: 'application/json' },
      },
      async handle(input, res) {
        await stream(res, input.requestId, MANIFEST_DOCUMENT, 'application/json');
      },
    },
    ...OSCAL_KINDS.map((model): RouteSpec => ({
      ...base,
      path: `/auditor/oscal/${model}`,
      operationId: `getOscal${model[0].toUpperCase()}${model.slice(1)}`,
      summary: `OSCAL ${OSCAL_TITLES[model]} of the current run`,
      description:
        model === 'sar'
          ? "The SAR in RFC 8785 canonical form: the exact bytes its DSSE envelope signs. With envelope=1, the envelope instead (an in-toto Statement v1 whose subject digest is the SAR's SHA-256). Save both as sar.json and sar.json.dsse.json and run `svc ir validate sar.json`."
          : `The ${OSCAL_TITLES[model]} in RFC 8785 canonical form, with Content-Digest and ETag.`,
      ...(model === 'sar'
        ? { query: query({ envelope: { enum: ['0', '1', 'true', 'false'], description: '1 or true: the DSSE envelope of the SAR.' } }) }
        : {}),
      responses: {
        200: {
          description: `The ${OSCAL_TITLES[model]} (or, for the SAR with envelope=1, its DSSE envelope).`,
          contentType: 'application/json',
          schema: { type: 'object' },
          headers: ARTIFACT_HEADERS,
        },
        304: { description: 'If-None-Match matched the ETag.', contentType: 'application/json' },
      },
      async handle({ query: q, requestId }, res) {
        const envelope = q.envelope === '1' || q.envelope === 'true';
        await stream(res, requestId, envelope ? `${model}.json.dsse.json` : `${model}.json`, envelope ? DSSE_TYPE : 'application/json');
      },
    })),
    {
      ...base,
      path: '/auditor/graph/{control_id}',
      operationId: 'traceControl',
      summary: 'Trace one control to its KSIs, evidence and actions',
      description:
        "The control → KSI → evidence → action → POA&M graph of one control in the current run; each evidence node carries its RFC 6962 inclusion proof against the run's Merkle root. 404 for a control the baseline does not select.",
      params: {
        type: 'object',
        required: ['control_id'],
        properties: {
          control_id: {
            type: 'string',
            maxLength: 16,
            pattern: '^[A-Za-z]{2}-\\d{1,2}(?:\\.\\d{1,2}|\\(\\d{1,2}\\))?$',
            description: 'A NIST SP 800-53 control id: ac-2, ia-2.1 or AC-2(1).',
          },
        },
      },
      responses: { 200: { description: 'The graph of the control.', schema: GRAPH } },
      async handle({ params, requestId }, res) {
        await sendStoredDocument(res.req, res, await trace.execute({ control: params.control_id }), 'application/json', (error) =>
          logDocumentFailure(requestId, error),
        );
      },
    },
  ];
}
