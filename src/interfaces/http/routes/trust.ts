import type { Response } from 'express';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { BuildTrustDocument, type TrustRepresentation } from '../../../application/trust/build-trust-document';
import {
  SNAPSHOT_DOCUMENTS,
  TRUST_DOCUMENT_INFO,
  TRUST_DOCUMENTS,
  type BuildTrustDocumentInput,
  type TrustDocumentName,
  type TrustFormat,
} from '../../../application/trust/trust-documents';
import type { IncidentAudience } from '../../../domain/trust/audience';
import { METRICS_RULE } from '../../../application/fedramp/cr26-assessment';
import { holdsRole } from '../app';
import { CR26_DOCUMENTS, CR26_SCHEMA_DATE } from '../../../domain/fedramp/cr26-documents';
import { SDR_KSI_METRICS_SCHEMA } from '../../../domain/fedramp/sdr';
import { ConfigError } from '../../../domain/errors';
import type { TrustCenterListing } from '../../../domain/trust/public-information';
import type { ApiConfig } from '../config/api-config';
import { pageSecurityPolicy } from '../responses/page-policy';
import { HttpProblem } from '../responses/problem-details';
import { sendRepresentation } from '../responses/representation';
import type { JsonSchema, RouteInput, RouteSpec } from './route';
import { SnapshotDocuments } from '../../../application/trust/snapshot-documents';
import { busyProblem } from './trust-snapshots';

/** Who reads the certification data (DESIGN §9): an agency's principals, recognized by pattern or named, and auditors. */
export const READERS = ['agency', 'auditor'] as const;

const SCHEMA_BASE = 'https://fedramp.gov/schemas/fedramp-';

/** Each route's summary, and what its JSON is. */
const ROUTES: Record<TrustDocumentName, { summary: string; description: string }> = {
  public: {
    summary: 'Public information about the cloud service offering (CDS-CSO-PUB)',
    description:
      "What CDS-CSO-PUB asks providers to publish, from the Certification Package Overview: FedRAMP ID, provider and service, description, certification type, UEI, website and logo, service and deployment model, business categories, sales and security contacts, assessor, certified services (CDS-CSO-SVC), secure configuration guidance, the next OCR date (CCM-OCR-NRD) and the package URI, in the CPO's field names (valid against FedRAMP's CPO schema), plus `trustCenter`: the certification class, the documents this trust center serves and to whom, and how an agency gets access. Needs no authentication, and a web application of any origin may read it (FRC-CSO-JSN): `Access-Control-Allow-Origin: *` without credentials, an `OPTIONS` preflight answered 204.",
  },
  cpo: {
    summary: 'The Certification Package Overview',
    description: 'The CPO as `svc fedramp cpo` builds it from the profile, with the next OCR date of the last recorded OCR (CCM-OCR-NRD).',
  },
  sdr: {
    summary: "The Security Decision Record of the store's state",
    description:
      "The SDR of the run store's state (the latest run of every source: docs/conmon.md, Sources), as `svc fedramp sdr` builds it for a run (the rules with the provider's statements or svc's judgments, every KSI with its evidence, ksiMetrics), as of the store's last write. 404 `no-run-recorded` before the first run.",
  },
  ocr: {
    summary: 'The latest Ongoing Certification Report',
    description:
      "The OCR last recorded with `svc fedramp ocr`: to an auditor exactly as written; to anyone else with each reportable incident that does not list the caller's agency replaced, in its place, by one sentence saying that an incident that did not affect the agency occurred (CCM-OCR-AVL; docs/fedramp.md). 404 `no-ocr-recorded` before the first.",
  },
  vdr: {
    summary: 'The Vulnerability Detail Report',
    description:
      "The VDR (VER-RPT-VDT) of the 30 days up to the store's last write, from the vulnerability register as `svc vuln report --format vdr` judges it.",
  },
  avi: { summary: 'The Accepted Vulnerability Info', description: "The AVI (VER-RPT-AVI) of the 30 days up to the store's last write." },
  history: {
    summary: 'The historical vulnerability activity',
    description: 'Every vulnerability the register holds (VER-TFR-MRH), the accepted ones as AVI entries.',
  },
  scn: {
    summary: 'The recorded Significant Change Notifications',
    description:
      "Every SCN recorded with `svc fedramp scn`, exactly as written, in the order recorded: a JSON list whose items are each valid against FedRAMP's SCN schema.",
  },
  metrics: {
    summary: 'The Key Security Indicator metrics (SDR-CSX-KMT)',
    description:
      "Each KSI's summaries over the last 30 days and up to the last year (and, for Class C, every day's status), from the run store: the SDR's `ksiMetrics`, with the package URI, FedRAMP ID and class. 404 `no-run-recorded` before the first run, `no-ksi-metrics` for a Rev5 offering.",
  },
  incidents: {
    summary: 'The incident reports the caller may read',
    description:
      "Every incident report recorded with `svc fedramp incident` (initial, ongoing, final), exactly as written, in the order recorded: to an auditor all of them; to an agency's principal those that list its agency as affected; to a principal holding the agency role by name and recognized as no agency, none. A JSON list whose items are each valid against FedRAMP's incident report schema.",
  },
  snapshots: {
    summary: 'The snapshots of the certification data aligned to OCRs (CDS-CSO-HAD)',
    description:
      "One entry per recorded Ongoing Certification Report: its period, when it was recorded, the next report date it set, where the snapshot stops in the run store (the latest run and the OCR's journal entry), and the routes that serve it (`?snapshot=<period end>`). Kept for the life of the store.",
  },
};

/** The validators every trust route sends (sendRepresentation): `etag` says when the bytes change. */
export function validatorHeaders(etag: string): Record<string, { description: string; schema: JsonSchema }> {
  return {
    ETag: { description: `Strong validator: the hex SHA-256 of the body, quoted. ${etag}`, schema: { type: 'string' } },
    'Content-Digest': { description: 'RFC 9530 `sha-256=:<base64>:` of the body.', schema: { type: 'string' } },
  };
}

const HEADERS = {
  ...validatorHeaders('The same for every request until something is recorded in the run store or falls due.'),
  Vary: { description: '`Accept`: the JSON and the page are two representations of one URL.', schema: { type: 'string' } },
};

const DAY = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

/** The JSON each route answers: FedRAMP's schema where there is one (named by URL), svc's own shape where there is none. */
function jsonSchema(name: TrustDocumentName): JsonSchema {
  const { schema } = TRUST_DOCUMENT_INFO[name];
  const url = schema === undefined ? '' : `${SCHEMA_BASE}${CR26_DOCUMENTS[schema].stem}-schema-${CR26_SCHEMA_DATE}.json`;
  switch (name) {
    case 'scn':
    case 'incidents':
      return { type: 'array', description: `The recorded reports in order; each is valid against ${url}.`, items: { type: 'object' } };
    case 'public':
      return {
        type: 'object',
        description: `Valid against FedRAMP's CPO schema (${url}), with svc's \`trustCenter\` key.`,
        required: ['serviceIdentification', 'serviceProperties', 'contactInformation', 'certificationPackageOverviewUri', 'trustCenter'],
      };
    case 'metrics':
      return {
        type: 'object',
        required: ['certificationPackageOverviewUri', 'certificationClass', 'rule', 'asOf', 'ksiMetrics'],
        properties: {
          certificationPackageOverviewUri: { type: 'string' },
          fedRampPackageId: { type: 'string' },
          certificationClass: { enum: ['A', 'B', 'C', 'D'] },
          rule: { const: METRICS_RULE },
          asOf: { type: 'string', format: 'date-time' },
          ksiMetrics: { type: 'object', description: 'By KSI id.', additionalProperties: SDR_KSI_METRICS_SCHEMA },
        },
      };
    case 'snapshots':
      return {
        type: 'object',
        required: ['snapshots'],
        properties: {
          rule: { const: 'CDS-CSO-HAD', description: 'Where the rules release in use holds it.' },
          snapshots: {
            type: 'array',
            items: {
              type: 'object',
              required: ['snapshot', 'period', 'recordedAt', 'nextReportDate', 'journalSeq', 'documents'],
              additionalProperties: false,
              properties: {
                snapshot: DAY,
                period: { type: 'object', required: ['from', 'to'], properties: { from: DAY, to: DAY } },
                recordedAt: { type: 'string', format: 'date-time' },
                nextReportDate: DAY,
                runSeq: { type: 'integer', minimum: 1 },
                journalSeq: { type: 'integer', minimum: 1 },
                documents: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      };
    default:
      return { type: 'object', description: `Valid against ${url}.` };
  }
}

/** The words /fedramp/public uses for each authentication method. */
const METHOD_WORDS = {
  negotiate: 'Kerberos (HTTP Negotiate, RFC 4559)',
  mtls: 'a client certificate (mutual TLS)',
  proxy: "the provider's sign-in proxy (Windows authentication)",
} as const;

/**
 * What /fedramp/public lists (TrustCenterListing): the routes that declare a `listed` title, in the API's order, with
 * who may read each (an open route: `anyone`), and the authentication methods the configuration turns on.
 */
export function trustCenterListing(routes: readonly RouteSpec[], config: ApiConfig): TrustCenterListing {
  const methods = (['negotiate', 'mtls', 'proxy'] as const).filter((m) => config.auth[m] !== undefined);
  return {
    documents: routes.flatMap(({ path, listed, access }) =>
      listed === undefined
        ? []
        : [
            {
              path,
              title: listed.title,
              ...(listed.rules === undefined ? {} : { rules: [...listed.rules] }),
              access: access === 'open' ? ['anyone'] : [...access],
            },
          ],
    ),
    authentication: methods.map((m) => METHOD_WORDS[m]),
  };
}

/**
 * The trust center's document routes (DESIGN §9 `trust`, §12.7): /fedramp/public open, the certification data to the
 * `agency` and `auditor` roles. JSON by default; with Accept: text/html the page made from the same JSON, under
 * helmet's CSP with the page's own script allowed by hash. Both are built once per run-store state (BuildTrustDocument)
 * and answered with ETag, Content-Digest and 304.
 */
export function trustRoutes(container: DependencyContainer, config: ApiConfig, logger: Logger, listed: () => readonly RouteSpec[]): RouteSpec[] {
  const build = container.resolve(BuildTrustDocument);
  // The composition root (container.ts) wires the snapshots' documents.
  const snapshots = container.resolve(SnapshotDocuments);
  let listingMade: TrustCenterListing | undefined;
  // Made from the routes when /fedramp/public is first built: every route of the API is declared by then.
  const listing = () => (listingMade ??= trustCenterListing(listed(), config));
  /** The CSP of each page, by the page's SHA-256: worked out once per page, not per request. */
  const policies = new Map<string, string>();
  const policyOf = (page: TrustRepresentation): string => {
    let policy = policies.get(page.sha256);
    if (policy === undefined) {
      if (policies.size >= 64) policies.clear();
      policy = pageSecurityPolicy(Buffer.from(page.body).toString('utf8'));
      policies.set(page.sha256, policy);
    }
    return policy;
  };
  const send = async (name: TrustDocumentName, { query, principal, requestId }: RouteInput<{ snapshot?: string }>, res: Response) => {
    const format = formatOf(res);
    const audience: IncidentAudience =
      principal !== undefined && holdsRole(principal, ['auditor'], config.roles)
        ? { all: true }
        : { ...(principal?.agency === undefined ? {} : { agency: principal.agency }) };
    const input: BuildTrustDocumentInput = { document: name, format, listing: listing(), audience };
    let built: TrustRepresentation;
    try {
      built =
        query.snapshot === undefined
          ? await build.execute(input)
          : await snapshots.execute(await build.snapshotBounds(query.snapshot), { ...input, snapshot: query.snapshot }).catch((error: unknown) => {
              throw busyProblem(error, snapshots.limits.retryAfterSeconds);
            });
    } catch (error) {
      // Anyone may ask for /fedramp/public: what the server's configuration lacks goes to the log, not to them.
      if (name !== 'public' || !(error instanceof ConfigError)) throw error;
      logger.error({ req_id: requestId, err: { code: error.code, message: error.message } }, 'trust center not configured');
      throw new HttpProblem(
        500,
        'trust-center-not-configured',
        "the trust center cannot build its public information from the offering's profile yet; the server log names what is missing",
      );
    }
    sendRepresentation(res.req, res, {
      body: built.body,
      sha256: built.sha256,
      contentType: built.mediaType,
      cacheControl: name === 'public' ? 'no-cache' : 'private, no-cache',
      ...(format === 'html' ? { headers: { 'Content-Security-Policy': policyOf(built) } } : {}),
    });
  };
  return TRUST_DOCUMENTS.map((name): RouteSpec => ({
    module: 'trust',
    method: 'get',
    path: `/fedramp/${name}`,
    operationId: `getFedramp${name[0].toUpperCase()}${name.slice(1)}`,
    summary: ROUTES[name].summary,
    description: `${ROUTES[name].description} As JSON (RFC 8785 canonical), or with \`Accept: text/html\` as a self-contained page made from the same JSON. Built from the run store and the offering's profile once per store state (the latest run and the journal's length), as of the store's last write, or of the last due time that has passed since: the same bytes until something is recorded or falls due.${(SNAPSHOT_DOCUMENTS as readonly string[]).includes(name) ? ' With `?snapshot=<OCR period end>`, as it was when that OCR was recorded (CDS-CSO-HAD; GET /fedramp/snapshots lists them).' : ''}`,
    access: name === 'public' ? 'open' : READERS,
    listed: { title: TRUST_DOCUMENT_INFO[name].title, ...(TRUST_DOCUMENT_INFO[name].rules === undefined ? {} : { rules: TRUST_DOCUMENT_INFO[name].rules }) },
    ...(name === 'public' ? { crossOrigin: true } : {}),
    ...((SNAPSHOT_DOCUMENTS as readonly string[]).includes(name)
      ? {
          query: {
            type: 'object',
            additionalProperties: false,
            properties: {
              snapshot: { ...DAY, description: 'The period end (YYYY-MM-DD) of a recorded OCR: the document as it was when that OCR was recorded.' },
            },
          },
        }
      : {}),
    responses: {
      200: {
        description: `${TRUST_DOCUMENT_INFO[name].title}: JSON, or the page with Accept: text/html.`,
        content: { 'application/json': jsonSchema(name), 'text/html': { type: 'string' } },
        headers: HEADERS,
      },
      304: { description: 'If-None-Match matched the ETag of the representation asked for.', contentType: 'application/json' },
      406: {
        description: 'Accept allows neither application/json nor text/html.',
        contentType: 'application/problem+json',
        schema: { $ref: '#/components/schemas/Problem' },
      },
    },
    async handle(input, res) {
      await send(name, input, res);
    },
  }));
}

/** JSON unless the request prefers the page (a browser's Accept); 406 when it accepts neither. */
function formatOf(res: Response): TrustFormat {
  const type = res.req.accepts(['application/json', 'text/html']);
  if (type === false)
    throw new HttpProblem(
      406,
      'not-acceptable',
      `Accept ${JSON.stringify(String(res.req.headers.accept).slice(0, 100))}: this route answers application/json or text/html`,
    );
  return type === 'text/html' ? 'html' : 'json';
}
