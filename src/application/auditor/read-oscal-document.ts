import { inject, injectable } from 'tsyringe';
import { jsonText } from '../../domain/encoding/json-chunks';
import { buildSap } from '../../domain/oscal/assessment-plan';
import type { Json, OscalRun } from '../../domain/oscal/oscal-run';
import { buildOscalPoam } from '../../domain/oscal/plan-of-action-and-milestones';
import { buildSsp } from '../../domain/oscal/system-security-plan';
import { HASHING, type Hashing } from '../../ports/hashing';
import { SIGNER, type Signer } from '../../ports/signer';
import type { OscalKind } from '../oscal/generate-oscal';
import { envelopeText, signSar } from '../oscal/generate-sar';
import { OscalRunLoader } from '../oscal/load-oscal-run';
import { CurrentRun, type AuditorRun } from './current-run';
import { runRef, type RunRef } from './run-ref';

/** One served document: its exact bytes (UTF-8 text) and their SHA-256. */
export interface ServedDocument {
  run: RunRef;
  /** File name an assessor saves it under (`sar.json`, `sar.json.dsse.json`, …). */
  name: string;
  text: string;
  /** Hex SHA-256 of the text's UTF-8 bytes. */
  sha256: string;
}

export interface ReadOscalDocumentInput {
  model: OscalKind;
  /** The SAR's DSSE envelope instead of the SAR (only for model sar). */
  envelope?: boolean;
  /** PEM private key that signs the SAR; else SVC_SIGNING_KEY, else the development key. */
  key?: string;
}

const BUILDERS: Record<Exclude<OscalKind, 'sar'>, (run: OscalRun) => Json> = { ssp: buildSsp, sap: buildSap, poam: buildOscalPoam };

/**
 * GET /auditor/oscal/{sar,ssp,poam,sap}: an OSCAL document of the current run in RFC 8785 canonical form, built once
 * per run (as one string, joined from the document's chunks: storing them with the run is the next step for large
 * runs). The SAR is the one its DSSE envelope signs (the same bytes `svc ir generate-sar` writes), so an assessor
 * can save both and run `svc ir validate sar.json`.
 */
@injectable()
export class ReadOscalDocument {
  constructor(
    private readonly current: CurrentRun,
    private readonly oscal: OscalRunLoader,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(SIGNER) private readonly signer: Signer,
  ) {}

  async execute(input: ReadOscalDocumentInput): Promise<ServedDocument> {
    const current = await this.current.get();
    const name = input.model === 'sar' && input.envelope ? 'sar.json.dsse.json' : `${input.model}.json`;
    let text = current.memo.get(name) as string | undefined;
    if (text === undefined) {
      text = input.model === 'sar' ? await this.signedSar(current, input.key, input.envelope === true) : jsonText(BUILDERS[input.model](this.oscalRun(current)), 'canonical');
      current.memo.set(name, text);
    }
    return { run: runRef(current.summary), name, text, sha256: this.hashing.sha256(text) };
  }

  private oscalRun(current: AuditorRun): OscalRun {
    let run = current.memo.get('oscal-run') as OscalRun | undefined;
    if (!run) current.memo.set('oscal-run', (run = this.oscal.describe(current.run)));
    return run;
  }

  /** Signs once per run and keeps both halves, so the envelope always signs the SAR bytes served. */
  private async signedSar(current: AuditorRun, key: string | undefined, envelope: boolean): Promise<string> {
    const signed = signSar(this.oscalRun(current), 'sar.json', await this.signer.load(key), this.hashing);
    current.memo.set('sar.json', signed.text);
    current.memo.set('sar.json.dsse.json', envelopeText(signed.envelope));
    return envelope ? envelopeText(signed.envelope) : signed.text;
  }
}
