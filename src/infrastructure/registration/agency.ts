/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import { join } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { AGENCY_CONFIG } from '../../ports/agency-config';
import { AGENCY_STORE } from '../../ports/agency-store';
import { TRUST_CENTER_CLIENT } from '../../ports/trust-center-client';
import { AgencyConfigFile } from '../agency/agency-config-file';
import { lazy, type RegistrationContext } from './lazy';

/**
 * The agency side (DESIGN §14): its configuration (`agency` of svc.config.json), the client of the providers' trust
 * centers, and its store — PostgreSQL when SVC_STORE names one (an agency with hundreds of providers), else files under
 * the svc home (`.svc/agency`).
 */
export function registerAgency(container: DependencyContainer, { env, cwd, config, svcHome }: RegistrationContext): void {
  container.register(AGENCY_CONFIG, { useValue: new AgencyConfigFile(config.file ?? join(cwd, 'svc.config.json'), config.agency) });
  lazy(
    container,
    TRUST_CENTER_CLIENT,
    () => require('../agency/https-trust-center-client') as typeof import('../agency/https-trust-center-client'),
    (m) => new m.HttpsTrustCenterClient(),
  );
  const spec = env.SVC_STORE;
  if (spec !== undefined && /^postgres(ql)?:\/\//i.test(spec))
    lazy(
      container,
      AGENCY_STORE,
      () => require('../agency/postgres-agency-store') as typeof import('../agency/postgres-agency-store'),
      (m) => new m.PostgresAgencyStore({ url: spec }),
      { refuses: true },
    );
  else
    lazy(
      container,
      AGENCY_STORE,
      () => require('../agency/file-agency-store') as typeof import('../agency/file-agency-store'),
      (m) => new m.FileAgencyStore(join(svcHome, 'agency')),
    );
}
