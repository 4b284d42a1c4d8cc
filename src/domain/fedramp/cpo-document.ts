import type { AccountableOfficial } from './profile';

/*
 * The CPO as svc writes it: FedRAMP's CPO schema (fedramp-certification-package-overview-schema-2026-06-24.json,
 * $schemaVersion 0.1.2 to 0.1.6 in the generations svc carries; `advisors` from 0.1.6 on), completed by svc's own
 * `certificationPackageOverviewUri` and `metadata` (CPO-CSO-MTD), which the schema's open top level allows.
 *
 * svc fills the package id, the certification type, the next OCR date (when known), the advisors, the package URI and
 * the metadata; every other field is the profile's `fedramp.cpo` as written, so it is optional here wherever the
 * profile may leave it out (the schema requires some of them: FedRAMP's schema checks the CPO before it is written
 * when the schemas are at hand). Without them the profile's fields are written unchecked, so a reader that must not
 * fail on a profile's mistake (the twin, the public information) still checks a copied section's shape before it
 * reads into it. Keys the schema does not name are kept, in the profile's order.
 */
export interface CpoDocument {
  serviceIdentification: CpoServiceIdentification;
  serviceProperties: CpoServiceProperties;
  contactInformation?: CpoContact[];
  assessor?: CpoAssessor;
  /** From `fedramp.advisors`, when the CPO schema in use declares it (Cr26Shapes.advisors) and the profile names any. */
  advisors?: CpoAdvisor[];
  certifiedServices?: CpoCertifiedService[];
  thirdPartyInformationResources?: CpoThirdPartyInformationResources;
  /** `fedramp.package_uri`. */
  certificationPackageOverviewUri: string;
  metadata: CpoMetadata;
  /** The profile's other keys. */
  [key: string]: unknown;
}

/** CPO-CSO-MTD: the accountable official and the CPO's version, last update and source of update. */
export interface CpoMetadata {
  accountableOfficial: AccountableOfficial;
  version: string;
  /** ISO-8601 UTC, to the second. */
  lastUpdated: string;
  /** What wrote it: `svc 0.9.0 fedramp cpo`. */
  updateSource: string;
}

/** `serviceIdentification`: the package id and certification type svc's, first; the rest the profile's. */
export interface CpoServiceIdentification {
  /** `fedramp.fedramp_id` (CDS-CSO-FID). */
  fedRampPackageId: string;
  /** From the certification type. */
  certificationType: '20x' | 'Rev5';
  ueiNumber?: string;
  providerName?: string;
  serviceName?: string;
  serviceAcronym?: string;
  /** Markdown. */
  serviceDescription?: string;
  website?: string;
  logo?: string;
  [key: string]: unknown;
}

/** `serviceProperties`: the profile's, with the next OCR date (CCM-OCR-NRD) last when svc knows one. */
export interface CpoServiceProperties {
  serviceType?: ('SaaS' | 'PaaS' | 'IaaS')[];
  deploymentModel?: 'Public Cloud' | 'Government-Only Cloud' | 'Hybrid Cloud' | 'Community Cloud' | 'Government Community Cloud';
  /** The schema's business categories (up to 10 of its enum). */
  businessCategory?: string[];
  trustCenter?: CpoRepository;
  secureConfigurationGuidance?: CpoRepository;
  additionalRepositories?: CpoRepository[];
  /** YYYY-MM-DD. */
  nextOngoingCertificationReportDate?: string;
  [key: string]: unknown;
}

/** The schema's `$defs/repository`: `accessRequestInstructions` is required where authentication is. */
export interface CpoRepository {
  repositoryType: string[];
  url: string;
  repositoryDescription: string;
  authenticationRequired: boolean;
  accessRequestInstructions?: string;
}

/** The schema's `$defs/contactInfo`; the list holds a `Security` and a `Sales` contact. */
export interface CpoContact {
  contactType: string;
  contactName?: string;
  contactEmail?: string;
  contactPhone?: string;
}

export interface CpoAssessor {
  name: string;
  /** Six digits. */
  assessorID: string;
}

export interface CpoAdvisor {
  name: string;
}

export interface CpoCertifiedService {
  serviceName: string;
  serviceDescription: string;
  /** YYYY-MM-DD. */
  dateAvailable?: string;
}

export interface CpoThirdPartyInformationResources {
  certified?: { fedRampCertifiedThirdPartyInformationResource: string; useCase: string }[];
  nonCertified?: { name: string; provider: string; website?: string; useCase: string }[];
}
