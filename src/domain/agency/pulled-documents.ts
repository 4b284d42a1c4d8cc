import type { Cr26DocumentType } from '../fedramp/cr26-documents';
import type { PublicJwk } from '../signing/jwk';

/**
 * The certification documents a trust center serves and `svc agency pull` fetches (DESIGN §14), by name, with the path
 * under the trust center's base that FedRAMP-compatible trust centers (svc-api among them) serve it at and the CR26
 * schema it must validate against. `public` is the open CDS-CSO-PUB information; the rest are the agency's to read.
 */
export const PULLED_DOCUMENTS = {
  public: { path: '/fedramp/public' },
  cpo: { path: '/fedramp/cpo', schema: 'cpo' },
  sdr: { path: '/fedramp/sdr', schema: 'sdr' },
  ocr: { path: '/fedramp/ocr', schema: 'ocr' },
  vdr: { path: '/fedramp/vdr', schema: 'vdr' },
  avi: { path: '/fedramp/avi', schema: 'avi' },
  history: { path: '/fedramp/history', schema: 'history' },
  /** A list of SCNs, each valid against FedRAMP's SCN schema. */
  scn: { path: '/fedramp/scn', schema: 'scn', list: true },
  /** A list of incident reports, each valid against FedRAMP's incident report schema. */
  incidents: { path: '/fedramp/incidents', schema: 'incident', list: true },
  metrics: { path: '/fedramp/metrics' },
  snapshots: { path: '/fedramp/snapshots' },
} as const satisfies Record<string, { path: string; schema?: Cr26DocumentType; list?: true }>;

export type PulledDocumentName = keyof typeof PULLED_DOCUMENTS;
export const PULLED_DOCUMENT_NAMES = Object.keys(PULLED_DOCUMENTS) as PulledDocumentName[];

/** The TLS identity a trust center showed: its leaf certificate. */
export interface TlsIdentity {
  /** SHA-256 fingerprint of the certificate, `AB:CD:…` as Node gives it. */
  fingerprint256: string;
  subject: string;
  issuer: string;
  validTo: string;
}

/** How a response was delivered, as FRC-CSO-JSN asks: the headers that make the JSON usable by automation. */
export interface Delivery {
  contentType?: string;
  /** `X-Content-Type-Options: nosniff` was sent. */
  nosniff: boolean;
  /** `Access-Control-Allow-Origin` as sent (to a request carrying an Origin). */
  cors?: string;
}

/** A document as stored: content-addressed bytes with when, from where and the HTTP validators. */
export interface StoredDocument {
  sha256: string;
  bytes: number;
  url: string;
  /** ISO-8601 UTC: when these bytes were first fetched (a 304 keeps the time and validators of the fetch it confirms). */
  fetchedAt: string;
  etag?: string;
  lastModified?: string;
  delivery: Delivery;
}

/**
 * What one pull did with one document: `fetched` (new bytes, or the same bytes again without a validator), `unchanged`
 * (304 to If-None-Match: the previous bytes stand), `absent` (404: the trust center does not serve it), `denied`
 * (401/403: the agency's principal is not granted it), `failed` (down, slow, too large, not JSON, another status: the
 * previous bytes stand, if any).
 */
export type DocumentOutcome = 'fetched' | 'unchanged' | 'absent' | 'denied' | 'failed';

export interface PulledDocument {
  name: PulledDocumentName;
  url: string;
  outcome: DocumentOutcome;
  /** The HTTP status of the last attempt; absent when no response came. */
  status?: number;
  /**
   * The bytes this pull leaves as the document's current ones: new, confirmed (304), or, after any other outcome, the
   * previous pull's (a failure never replaces good bytes), so the newest pull alone says what is current.
   */
  stored?: StoredDocument;
  /** Why it failed or was denied, one line without secrets. */
  error?: string;
  /** Attempts made (1 when the first answered). */
  attempts: number;
}

/** The severity of a finding: `action` is something the agency must act on (status exits 1); `notice` is information. */
export type FindingLevel = 'action' | 'notice';

/** One thing verification found about a provider, citing the rule and the document behind it. */
export interface AgencyFinding {
  level: FindingLevel;
  /** The CR26 rule it is about (`CDS-CSO-FID`), or `svc:<check>` for a check of svc's own (`svc:reachable`). */
  rule: string;
  /** A short stable code (`fedramp-id-mismatch`), for filters and tests. */
  code: string;
  /** The document it is about, when one. */
  document?: PulledDocumentName;
  /** The JSON path or header within it, when one. */
  at?: string;
  message: string;
}

/** The schema generation a document validated under, or that it validated under none. */
export interface SchemaVerdict {
  document: PulledDocumentName;
  sha256: string;
  /** The carried generation (`2026-10-08`) it is valid under, the newest first; absent when valid under none. */
  generation?: string;
  /** Whether that is the newest generation svc carries. */
  current: boolean;
  /** The first problems under the newest generation (at most 5), when not valid under it. */
  problems: string[];
}

/** One pull of one provider, as the agency store records it. */
export interface AgencyPull {
  provider: string;
  /** 1, 2, … per provider. */
  seq: number;
  /** ISO-8601 UTC. */
  started: string;
  finished: string;
  /** The trust center's base URL the pull used. */
  url: string;
  /** The FedRAMP ID configured for the provider when it was pulled (what CDS-CSO-FID was checked against). */
  fedrampId?: string;
  tls?: TlsIdentity;
  /** `ok`: every document fetched or unchanged (or absent/denied as served); `partial`: some failed; `failed`: none came. */
  outcome: 'ok' | 'partial' | 'failed';
  /** Why the whole pull failed (unreachable, changed TLS identity), one line. */
  error?: string;
  documents: PulledDocument[];
  schemas: SchemaVerdict[];
  findings: AgencyFinding[];
  /**
   * What status and diff read of the current documents, kept with the pull so they need not parse an SDR of thousands
   * of evidence entries again: the OCR's period end and each KSI's status (null: none given). Absent in a record
   * written before svc kept them; then the documents are read.
   */
  facts?: PullFacts;
  /** The provider's signed certification package, as last checked (PublishedPackage); absent when its CPO names none. */
  package?: PublishedPackage;
}

/**
 * The certification package a provider's CPO publishes (a repository of `serviceProperties.additionalRepositories`
 * typed "Certification Package"), as `svc agency pull` last checked it: fetched through the trust center's session,
 * its signature and every file's SHA-256 verified in memory with the key its envelope carries. That proves the files
 * are those signed, not who signed them: `keyid` is recorded for the agency to compare with the key the provider
 * names. `verified: false` with the `error` that says why (the first mismatch, or why it was not fetched).
 */
export interface PublishedPackage {
  /** The package's base URL (its files at `<url>/<name>`). */
  url: string;
  verified: boolean;
  /** The files read, the manifest and envelope included: every one when verified, those before the first problem when not. */
  files: number;
  /** The RFC 7638 thumbprint of the key that signed it, when the signature verified. */
  keyid?: string;
  error?: string;
}

/** The facts of a pull's current documents, by PullProviders (see AgencyPull.facts). */
export interface PullFacts {
  ocrPeriodEnd?: string;
  /** By KSI id, in the SDR's order. */
  ksiStatuses?: Record<string, string | null>;
}

/** The agency's review of one OCR (CCM-AGM-ROR), signed with the configured key. */
export interface AgencyReview {
  provider: string;
  /** The OCR's reporting period end (`2026-09-30`). */
  ocrPeriodEnd: string;
  /** SHA-256 of the OCR bytes reviewed. */
  ocrSha256: string;
  reviewedAt: string;
  reviewer?: string;
  note?: string;
  /**
   * The DSSE-style signature over the canonical review without `signature`, with the public key that makes it (as svc's
   * DSSE envelopes carry theirs), so a review verifies on its own: integrity since signing, the key id saying whose key.
   */
  signature: { keyid: string; alg: string; sig: string; publicJwk?: PublicJwk };
}

/** A document as the provider's pulls leave it: the bytes stored, and the pull that last fetched or confirmed them. */
export interface CurrentDocument {
  stored: StoredDocument;
  /** The seq of the pull that last fetched or confirmed these bytes. */
  seq: number;
}

/**
 * Each document's current bytes after `pulls` (oldest first): the newest pull's `stored`, which carries the previous
 * bytes forward through a failed, denied or absent outcome, so a provider that breaks keeps its last good documents.
 */
export function currentDocuments(pulls: readonly AgencyPull[]): Map<PulledDocumentName, CurrentDocument> {
  const current = new Map<PulledDocumentName, CurrentDocument>();
  for (const pull of pulls) for (const d of pull.documents) if (d.stored !== undefined) current.set(d.name, { stored: d.stored, seq: pull.seq });
  return current;
}
