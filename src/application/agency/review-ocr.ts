import { inject, injectable } from 'tsyringe';
import type { AgencyPull, AgencyReview, StoredDocument } from '../../domain/agency/pulled-documents';
import { fromBase64, toBase64 } from '../../domain/encoding/base64';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { canonicalText } from '../../domain/conmon/run-id';
import { InvalidInputError, NotFoundError } from '../../domain/errors';
import { pae } from '../../domain/signing/dsse';
import { jwkThumbprint } from '../../domain/signing/jwk';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { CLOCK, type Clock } from '../../ports/clock';
import { SIGNER, type Signer } from '../../ports/signer';
import { storedJson } from './provider-documents';
import { ocrPeriod } from '../../domain/agency/provider-status';

/** The DSSE payload type an agency review is signed under: the signature is over PAE(this type, the canonical review). */
export const AGENCY_REVIEW_PAYLOAD_TYPE = 'application/vnd.svc.agency-review+json';

/**
 * The bytes a review's signature covers: DSSE's pre-authentication encoding of AGENCY_REVIEW_PAYLOAD_TYPE and the
 * RFC 8785 canonical JSON of the review without `signature`. A reader verifies `signature.sig` over these with the
 * public key whose RFC 7638 thumbprint is `signature.keyid`.
 */
export function reviewSignedBytes(review: Omit<AgencyReview, 'signature'> & { signature?: unknown }): Uint8Array {
  const { signature: _signature, ...unsigned } = review;
  return pae(AGENCY_REVIEW_PAYLOAD_TYPE, new TextEncoder().encode(canonicalText(unsigned)));
}

/**
 * Why a recorded review does not verify, or undefined when it does: its signature must verify over reviewSignedBytes
 * with the public key it carries, and that key's RFC 7638 thumbprint must be its key id.
 */
export function reviewProblem(review: AgencyReview, signer: Pick<Signer, 'verify'>, sha256Hex: (text: string) => string): string | undefined {
  const { publicJwk, keyid, sig } = review.signature;
  if (publicJwk === undefined) return 'it carries no public key to verify it with';
  let thumbprint: string;
  try {
    thumbprint = jwkThumbprint(publicJwk, sha256Hex);
  } catch {
    return 'its public key is no usable key';
  }
  if (thumbprint !== keyid) return `its key id ${keyid} is not its public key's (${thumbprint})`;
  let verified = false;
  try {
    verified = signer.verify(publicJwk, reviewSignedBytes(review), fromBase64(sig));
  } catch {
    verified = false;
  }
  return verified ? undefined : `its signature does not verify with key ${keyid}: it was changed after it was signed`;
}

/** The provider's pulls, oldest first; NotFoundError naming `svc agency pull <name>` when it was never pulled. */
export async function pulledProvider(store: AgencyStore, provider: string): Promise<AgencyPull[]> {
  const pulls = await store.pulls(provider);
  if (pulls.length === 0)
    throw new NotFoundError('agency-provider-not-pulled', `provider "${provider}" has never been pulled; run \`svc agency pull ${provider}\` first`);
  return pulls;
}

/** One OCR the provider's pulls got: its reporting period, its bytes as stored, and the newest pull that fetched or confirmed them. */
export interface PulledOcr {
  periodStart?: string;
  periodEnd: string;
  stored: StoredDocument;
  seq: number;
}

/**
 * Every OCR the pulls got (the current one and those earlier pulls left behind), by reporting period end (the OCR
 * schema's `reportPeriod.to`), the oldest period first. Bytes without a period end are not an OCR to review and are
 * left out. When a provider republished an OCR for a period (a correction), the newest bytes stand for the period.
 */
export async function pulledOcrs(store: AgencyStore, pulls: readonly AgencyPull[]): Promise<PulledOcr[]> {
  const bySha = new Map<string, { stored: StoredDocument; seq: number }>();
  for (const pull of pulls)
    for (const d of pull.documents) if (d.name === 'ocr' && d.stored !== undefined) bySha.set(d.stored.sha256, { stored: d.stored, seq: pull.seq });
  const byPeriod = new Map<string, PulledOcr>();
  for (const { stored, seq } of bySha.values()) {
    const period = ocrPeriod(await storedJson(store, stored.sha256));
    if (period === undefined) continue;
    const known = byPeriod.get(period.to);
    if (known === undefined || known.seq <= seq)
      byPeriod.set(period.to, { ...(period.from === undefined ? {} : { periodStart: period.from }), periodEnd: period.to, stored, seq });
  }
  return [...byPeriod.values()].sort((a, b) => (a.periodEnd < b.periodEnd ? -1 : a.periodEnd > b.periodEnd ? 1 : 0));
}

export interface ReviewOcrInput {
  provider: string;
  /** `--ocr`: the reporting period end (YYYY-MM-DD) of the OCR reviewed. */
  periodEnd: string;
  note?: string;
  reviewer?: string;
  /** `--key`: the PEM signing key; else SVC_SIGNING_KEY, else the development key (Signer.load). */
  key?: string;
}

export interface ReviewOcrResult {
  review: AgencyReview;
  /** The pull whose bytes were reviewed, and where they came from. */
  ocr: { seq: number; url: string; fetchedAt: string };
  /** The reviews of an OCR for the same period recorded before this one, oldest first (a second review is recorded beside them). */
  earlier: AgencyReview[];
}

/**
 * `svc agency review <provider> --ocr <period end>` (CCM-AGM-ROR, DESIGN §14): records the agency's review of one OCR
 * the provider's pulls got, signed with the configured key as the SAR is (DSSE's PAE over canonical JSON,
 * reviewSignedBytes). Reviewing the same OCR again records another review; the earlier ones stay (the result lists
 * them), so the record shows every time the agency looked.
 */
@injectable()
export class ReviewOcr {
  constructor(
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(SIGNER) private readonly signer: Signer,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: ReviewOcrInput): Promise<ReviewOcrResult> {
    const pulls = await pulledProvider(this.store, input.provider);
    const ocrs = await pulledOcrs(this.store, pulls);
    if (ocrs.length === 0)
      throw new InvalidInputError(
        'agency-ocr-not-pulled',
        `provider "${input.provider}": no pull has got an OCR with a reporting period; run \`svc agency pull ${input.provider}\` once it publishes one`,
      );
    const ocr = ocrs.find((o) => o.periodEnd === input.periodEnd);
    if (ocr === undefined)
      throw new InvalidInputError(
        'agency-ocr-period-unknown',
        `provider "${input.provider}": no pulled OCR has a reporting period ending ${input.periodEnd}; the periods pulled end ${ocrs.map((o) => o.periodEnd).join(', ')}`,
      );
    const key = await this.signer.load(input.key);
    const unsigned: Omit<AgencyReview, 'signature'> = {
      provider: input.provider,
      ocrPeriodEnd: ocr.periodEnd,
      ocrSha256: ocr.stored.sha256,
      reviewedAt: isoSeconds(this.clock.now()),
      ...(input.reviewer === undefined ? {} : { reviewer: input.reviewer }),
      ...(input.note === undefined ? {} : { note: input.note }),
    };
    const review: AgencyReview = {
      ...unsigned,
      signature: { keyid: key.keyid, alg: key.algorithm, sig: toBase64(key.sign(reviewSignedBytes(unsigned))), publicJwk: key.publicJwk },
    };
    const earlier = (await this.store.reviews(input.provider)).filter((r) => r.ocrPeriodEnd === ocr.periodEnd);
    await this.store.appendReview(review);
    return { review, ocr: { seq: ocr.seq, url: ocr.stored.url, fetchedAt: ocr.stored.fetchedAt }, earlier };
  }
}
