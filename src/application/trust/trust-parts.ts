import { inject, injectable } from 'tsyringe';
import { ConfigError, InvalidInputError, NotFoundError } from '../../domain/errors';
import { OCR_KIND } from '../../domain/fedramp/ongoing-records';
import { requireProfileKeys } from '../../domain/fedramp/profile';
import { currentVulnerabilityReports } from '../../domain/vulnerabilities/vulnerability-reports';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { BuildCpo, type BuildCpoResult } from '../fedramp/build-cpo';
import { FedrampShapes } from '../fedramp/fedramp-documents';
import { OngoingJournal, type OngoingRecords } from '../fedramp/ongoing-journal';
import { SdrBuilder, type BuiltSdr } from '../fedramp/sdr-builder';
import { registerOffers, VulnerabilityRegister, type Register } from '../vulnerabilities/vulnerability-register';
import type { TrustStoreState } from './store-state';
import { SNAPSHOT_DOCUMENTS, type TrustSnapshot } from './trust-documents';

/** The svc command the documents and messages name as their source. */
export const TRUST_SOURCE = 'trust center (svc-api)';

/**
 * What the trust center's documents are built from, each made once per store state and shared by every document that
 * needs it: the CPO (BuildCpo), the SDR of the latest run (SdrBuilder), the journal's records, the vulnerability
 * register judged as of the state and its reports, the OCR snapshots. A new state drops what the last one made. One
 * instance per container: the process's, or a snapshot's (snapshotContainer), whose store never changes.
 */
@injectable()
export class TrustParts {
  private built: { key: string; parts: Map<string, Promise<unknown>> } = { key: '', parts: new Map() };

  constructor(
    private readonly cpo: BuildCpo,
    private readonly sdrs: SdrBuilder,
    private readonly journal: OngoingJournal,
    private readonly register: VulnerabilityRegister,
    private readonly shapes: FedrampShapes,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
  ) {}

  /**
   * `make()` once per store state and part: a new state drops what the last one built. A failure is kept only when it
   * is NotFoundError (the store holds no OCR, which only a write changes); anything else is tried again next time.
   */
  once<T>(state: TrustStoreState, part: string, make: () => Promise<T>): Promise<T> {
    if (this.built.key !== state.key) this.built = { key: state.key, parts: new Map() };
    const parts = this.built.parts;
    let hit = parts.get(part) as Promise<T> | undefined;
    if (hit === undefined) {
      hit = make().catch((error: unknown) => {
        if (!(error instanceof NotFoundError) && parts.get(part) === hit) parts.delete(part);
        throw serverConfiguration(error);
      });
      parts.set(part, hit);
    }
    return hit;
  }

  /** The SDR of the latest run as of the state; NotFoundError `no-run-recorded` before a run is. */
  async sdr(state: TrustStoreState): Promise<BuiltSdr> {
    const built = await this.once(state, 'sdr.built', () =>
      this.sdrs.buildLatest({ now: new Date(state.asOf) }, { command: `svc ${TRUST_SOURCE}`, jsonName: 'sdr.json' }),
    );
    if (built === undefined)
      throw new NotFoundError(
        'no-run-recorded',
        'no run is recorded yet, so there is no Security Decision Record; the provider records one with svc conmon process <report>',
      );
    return built;
  }

  cpoOf(state: TrustStoreState): Promise<BuildCpoResult> {
    return this.once(state, 'cpo.built', () => this.cpo.execute({ now: new Date(state.asOf), command: TRUST_SOURCE }));
  }

  records(state: TrustStoreState): Promise<OngoingRecords> {
    return this.once(state, 'journal', () => this.journal.read());
  }

  /** The OCR snapshots recorded (CDS-CSO-HAD), oldest first. */
  snapshots(state: TrustStoreState): Promise<TrustSnapshot[]> {
    return this.once(state, 'snapshots', async () =>
      (await this.journal.entries(OCR_KIND)).map(({ seq, recorded_at, record }) => ({
        snapshot: record.period.to,
        period: record.period,
        recordedAt: recorded_at,
        nextReportDate: record.next_report_date,
        ...(record.snapshot.run_seq === undefined ? {} : { runSeq: record.snapshot.run_seq }),
        journalSeq: seq,
        documents: SNAPSHOT_DOCUMENTS.map((d) => `/fedramp/${d}?snapshot=${record.period.to}`),
      })),
    );
  }

  /** The VDR, AVI and history as of the store state, from the register judged then, as `fedramp package` builds them. */
  vulnerabilityReports(state: TrustStoreState): Promise<ReturnType<typeof currentVulnerabilityReports>> {
    return this.once(state, 'vulnerabilities', async () => {
      const { package_uri } = requireProfileKeys(this.profile, ['class', 'package_uri'], `svc ${TRUST_SOURCE}`);
      const register = await this.judged(state);
      return currentVulnerabilityReports({
        packageUri: package_uri,
        groups: register.groups,
        now: register.now,
        offers: registerOffers(register, await this.shapes.of()),
      });
    });
  }

  /** When the register's judgments next change by time alone; none when the register cannot be judged (its routes say why). */
  nextChange(state: TrustStoreState): Promise<number | undefined> {
    return this.judged(state).then(
      (register) => this.register.nextChange(register),
      () => undefined,
    );
  }

  /** The vulnerability register judged as of the state. */
  private judged(state: TrustStoreState): Promise<Register> {
    return this.once(state, 'register', () => this.register.judge({ now: new Date(state.asOf) }, `svc ${TRUST_SOURCE}`));
  }
}

/** A profile the documents cannot be built from is the server's configuration error (500), not the caller's (400). */
function serverConfiguration(error: unknown): unknown {
  return error instanceof InvalidInputError && error.code === 'invalid-config' ? new ConfigError(error.code, error.message, { cause: error }) : error;
}
