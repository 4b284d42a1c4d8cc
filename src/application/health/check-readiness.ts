import { inject, injectable } from 'tsyringe';
import { AppError } from '../../domain/errors';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { SIGNER, type Signer } from '../../ports/signer';
import { plural } from '../../domain/encoding/plural';

export interface ReadinessCheck {
  ok: boolean;
  /** What was checked, or why it failed (one line, no secrets). */
  detail: string;
}

export interface Readiness {
  ready: boolean;
  checks: { store: ReadinessCheck; signer: ReadinessCheck };
}

/** GET /health/ready: the run store answers and the SAR signing key loads. */
@injectable()
export class CheckReadiness {
  constructor(
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(SIGNER) private readonly signer: Signer,
  ) {}

  async execute(input: { key?: string }): Promise<Readiness> {
    const store = await probe(async () => {
      const runs = await this.store.list();
      return `${this.store.location}: ${plural(runs.length, 'run')}`;
    });
    const signer = await probe(async () => {
      const key = await this.signer.load(input.key);
      return `${key.algorithm} key ${key.keyid} (${key.origin.kind})`;
    });
    return { ready: store.ok && signer.ok, checks: { store, signer } };
  }
}

async function probe(check: () => Promise<string>): Promise<ReadinessCheck> {
  try {
    return { ok: true, detail: await check() };
  } catch (error) {
    return { ok: false, detail: error instanceof AppError ? error.message : 'unexpected error; see the server log' };
  }
}
