import 'reflect-metadata';
import { container as root, type DependencyContainer } from 'tsyringe';
import type { FedrampProfile } from '../../src/domain/fedramp/profile';
import { DEFAULT_POLICY } from '../../src/domain/vulnerabilities/evaluation-policy';
import type { AgencyProvider, PullSettings } from '../../src/domain/agency/providers';
import { ACCESS_STORE } from '../../src/ports/access-store';
import { AGENCY_CONFIG } from '../../src/ports/agency-config';
import { AGENCY_STORE } from '../../src/ports/agency-store';
import { ARTIFACT_WRITER } from '../../src/ports/artifact-writer';
import { BUSINESS_CALENDAR, type BusinessCalendar } from '../../src/ports/business-calendar';
import { CATALOG_SOURCE } from '../../src/ports/catalog-source';
import { CLOCK } from '../../src/ports/clock';
import { FEDRAMP_PROFILE } from '../../src/ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE } from '../../src/ports/fedramp-rules-source';
import { HASHING } from '../../src/ports/hashing';
import { JOURNAL_STORE } from '../../src/ports/journal-store';
import { REPORT_READER } from '../../src/ports/report-reader';
import { RUN_SETTINGS } from '../../src/ports/run-settings';
import { RUN_STORE } from '../../src/ports/run-store';
import { SCAN_READER } from '../../src/ports/scan-reader';
import { SCHEMA_VALIDATOR } from '../../src/ports/schema-validator';
import { SECURITY_EVENT_SINKS } from '../../src/ports/security-event-sink';
import { SIGNER } from '../../src/ports/signer';
import { TRUST_CENTER_CLIENT } from '../../src/ports/trust-center-client';
import { UUIDS } from '../../src/ports/uuids';
import { VULNERABILITY_SETTINGS, type VulnerabilitySettings } from '../../src/ports/vulnerability-settings';
import { DeterministicUuids } from '../fakes/deterministic-uuids';
import { FixedCatalogSource } from '../fakes/fixed-catalog-source';
import { FixedClock } from '../fakes/fixed-clock';
import { FixedRulesSource } from '../fakes/fixed-rules-source';
import { FixedScanReader } from '../fakes/fixed-scan-reader';
import { FixedSchemaValidator } from '../fakes/fixed-schema-validator';
import { InMemoryAgencyConfig } from '../fakes/in-memory-agency-config';
import { InMemoryAgencyStore } from '../fakes/in-memory-agency-store';
import { InMemoryArtifactWriter } from '../fakes/in-memory-artifact-writer';
import { InMemoryReportReader } from '../fakes/in-memory-report-reader';
import { InMemoryRunStore } from '../fakes/in-memory-run-store';
import { InMemorySigner } from '../fakes/in-memory-signer';
import { PureJsHashing } from '../fakes/pure-js-hashing';
import { RecordingEventSinks } from '../fakes/recording-event-sinks';
import { ScriptedTrustCenterClient } from '../fakes/scripted-trust-center-client';
import { TEST_SETTINGS } from './builders';

/** The doubles a unit test of a use case reaches, to look at after it ran. */
export interface UnitDoubles {
  container: DependencyContainer;
  clock: FixedClock;
  files: InMemoryReportReader;
  writer: InMemoryArtifactWriter;
  store: InMemoryRunStore;
  schemas: FixedSchemaValidator;
  holidays: Set<string>;
  /** What `conmon process` (ProcessRun) delivered to each sink. */
  sinks: RecordingEventSinks;
  /** The agency side (`svc agency`): its store, its configuration (agency.providers) and the providers' trust centers. */
  agencyStore: InMemoryAgencyStore;
  agencyConfig: InMemoryAgencyConfig;
  trustCenters: ScriptedTrustCenterClient;
}

export interface UnitOptions {
  now?: string;
  /** Files the report reader holds, by path (`InMemoryReportReader`). */
  files?: Record<string, unknown>;
  profile?: FedrampProfile;
  schemas?: FixedSchemaValidator;
  /** Days (YYYY-MM-DD) the business calendar keeps as holidays. */
  holidays?: readonly string[];
  /** The `vulnerabilities` section (KEV catalog path, evaluation policy); else DEFAULT_POLICY without a catalog. */
  vulnerabilities?: VulnerabilitySettings;
  /** The `agency` section: its name, providers and pull settings (default: no provider, DEFAULT_PULL_SETTINGS). */
  agency?: { name?: string; providers?: AgencyProvider[]; pull?: Partial<PullSettings> };
}

/**
 * A child container with every port a use case of the CLI reaches bound to its double (test/fakes), as
 * register-adapters.ts binds the real adapters: a unit test resolves a use case with its dependencies by type, the way
 * the composition root does, and looks at the doubles afterwards. Nothing here touches the disk or the network.
 */
export function unitContainer(options: UnitOptions = {}): UnitDoubles {
  const container = root.createChildContainer();
  const clock = new FixedClock(new Date(options.now ?? '2026-11-20T12:00:00Z'));
  const files = new InMemoryReportReader(options.files ?? {});
  const writer = new InMemoryArtifactWriter();
  const store = new InMemoryRunStore();
  const schemas = options.schemas ?? new FixedSchemaValidator();
  const holidays = new Set(options.holidays ?? []);
  const sinks = new RecordingEventSinks();
  const agencyStore = new InMemoryAgencyStore();
  const agencyConfig = new InMemoryAgencyConfig(options.agency ?? {});
  const trustCenters = new ScriptedTrustCenterClient();
  const calendar: BusinessCalendar = { isHoliday: (day) => holidays.has(day) };
  container.register(CLOCK, { useValue: clock });
  container.register(REPORT_READER, { useValue: files });
  container.register(ARTIFACT_WRITER, { useValue: writer });
  container.register(RUN_STORE, { useValue: store });
  container.register(JOURNAL_STORE, { useValue: store });
  container.register(ACCESS_STORE, { useValue: store });
  container.register(SCHEMA_VALIDATOR, { useValue: schemas });
  container.register(BUSINESS_CALENDAR, { useValue: calendar });
  container.register(HASHING, { useValue: new PureJsHashing() });
  container.register(UUIDS, { useValue: new DeterministicUuids() });
  container.register(SIGNER, { useValue: new InMemorySigner() });
  container.register(SCAN_READER, { useValue: new FixedScanReader() });
  container.register(CATALOG_SOURCE, { useValue: new FixedCatalogSource() });
  container.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource() });
  container.register(FEDRAMP_PROFILE, { useValue: { profile: options.profile ?? {}, file: '/work/svc.config.json' } });
  container.register(RUN_SETTINGS, { useValue: TEST_SETTINGS });
  container.register(VULNERABILITY_SETTINGS, { useValue: options.vulnerabilities ?? { policy: DEFAULT_POLICY } });
  container.register(SECURITY_EVENT_SINKS, { useValue: sinks });
  container.register(AGENCY_STORE, { useValue: agencyStore });
  container.register(AGENCY_CONFIG, { useValue: agencyConfig });
  container.register(TRUST_CENTER_CLIENT, { useValue: trustCenters });
  return { container, clock, files, writer, store, schemas, holidays, sinks, agencyStore, agencyConfig, trustCenters };
}
