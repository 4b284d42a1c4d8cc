import type { CpoContact, CpoDocument, CpoRepository } from '../fedramp/cpo-document';
import type { Cr26Class, Cr26Rules } from '../fedramp/cr26-rules';
import { citedTitle, citing, reliedRule } from '../fedramp/relied-rules';
import { isPlainObject } from '../encoding/json-values';

/** One document the trust center serves, as /fedramp/public lists it. */
export interface TrustCenterDocument {
  /** The route: `/fedramp/cpo`. */
  path: string;
  title: string;
  /** The rules its title cites where the release in use holds them: `Access to the Certification Data (CDS-TRC-ACL, CDS-TRC-AAI)`. */
  rules?: readonly string[];
  /** Who may read it: `anyone`, or the roles (`agency`, `auditor`). */
  access: string[];
}

/** What the API tells the public about itself: its documents and how a caller authenticates. */
export interface TrustCenterListing {
  documents: TrustCenterDocument[];
  /** The authentication methods the API accepts, in words (`Kerberos (HTTP Negotiate)`). */
  authentication: string[];
}

/** The rule the public information answers; cited where the release in use holds it. */
export const PUBLIC_RULE = reliedRule('CDS-CSO-PUB');

/** CDS-CSO-PUB's public information: the CPO's fields the rule lists (each as the CPO has it), and svc's `trustCenter`. */
export type PublicInformation = Pick<
  CpoDocument,
  'serviceIdentification' | 'serviceProperties' | 'assessor' | 'certifiedServices' | 'certificationPackageOverviewUri'
> & {
  /** The sales and security contacts. */
  contactInformation: CpoContact[];
  trustCenter: PublicTrustCenter;
};

/** svc's own key of the public information: what the CPO has no field for. */
export interface PublicTrustCenter {
  rule?: typeof PUBLIC_RULE;
  certificationClass: Cr26Class;
  /** The CPO's metadata.lastUpdated. */
  lastUpdated: string;
  documents: Omit<TrustCenterDocument, 'rules'>[];
  authentication: string[];
  accessInstructions: string;
}

/** The contact types CDS-CSO-PUB asks to publish: sales and security (the CPO schema requires both). */
const PUBLIC_CONTACTS = ['security', 'sales'];

/**
 * CDS-CSO-PUB's public information, from the CPO the trust center serves to agencies, so the two never disagree
 * (CDS-CSO-CBF). The rule names the CPO schema as its own, so the document is the CPO cut down to what the rule lists,
 * in the CPO's field names, and validates against FedRAMP's CPO schema: the service identification (FedRAMP ID,
 * provider, service, description, certification type, UEI, website, logo), the service properties (service and
 * deployment model, business categories, secure configuration guidance, trust center and other repositories, the next
 * OCR date of CCM-OCR-NRD), the sales and security contacts, the assessor, the certified services (CDS-CSO-SVC) and the
 * package URI. Left out as certification data or personal: other contacts, third-party information resources and the
 * CPO's metadata (the accountable official). One key of svc's own, `trustCenter`, adds what the CPO has no field for:
 * the certification class, the documents this trust center serves and to whom, and how to get access.
 */
export function publicInformation(
  cpo: CpoDocument,
  certificationClass: Cr26Class,
  listing: TrustCenterListing,
  rules: Pick<Cr26Rules, 'rules'>,
): PublicInformation {
  // The contacts and the trust center repository are the profile's as written (CpoDocument): checked before read.
  const contacts = Array.isArray(cpo.contactInformation)
    ? cpo.contactInformation.filter((c) => isPlainObject(c) && typeof c.contactType === 'string' && PUBLIC_CONTACTS.includes(c.contactType.toLowerCase()))
    : [];
  const trustCenter: Partial<CpoRepository> | undefined = isPlainObject(cpo.serviceProperties.trustCenter) ? cpo.serviceProperties.trustCenter : undefined;
  const given = typeof trustCenter?.accessRequestInstructions === 'string' ? trustCenter.accessRequestInstructions : undefined;
  return {
    serviceIdentification: cpo.serviceIdentification,
    serviceProperties: cpo.serviceProperties,
    contactInformation: contacts,
    ...(cpo.assessor === undefined ? {} : { assessor: cpo.assessor }),
    ...(cpo.certifiedServices === undefined ? {} : { certifiedServices: cpo.certifiedServices }),
    certificationPackageOverviewUri: cpo.certificationPackageOverviewUri,
    trustCenter: {
      ...citing(rules, PUBLIC_RULE),
      certificationClass,
      lastUpdated: cpo.metadata.lastUpdated,
      documents: listing.documents.map(({ rules: cited, ...document }) => ({ ...document, title: citedTitle(rules, document.title, cited ?? []) })),
      authentication: listing.authentication,
      accessInstructions: given ?? accessInstructions(listing, rules),
    },
  };
}

/** How an agency gets access when the profile's trust center repository gives no instructions of its own. */
function accessInstructions(listing: TrustCenterListing, rules: Pick<Cr26Rules, 'rules'>): string {
  const methods = listing.authentication.length === 0 ? 'the method the provider configures' : listing.authentication.join(', or ');
  return [
    `${citedTitle(rules, 'Federal agencies get access without a request per user', ['CDS-TRC-USH'])}: the provider registers an agency by its Kerberos realm, the issuer of its users' client certificates, or its directory domain, and every user and system of the agency is admitted as an agency reader as soon as it authenticates.`,
    "An agency not registered yet asks the provider's Security contact to add it.",
    `Authenticate with ${methods}.`,
    "Each document answers as JSON (Accept: application/json, valid against FedRAMP's schema where one exists) or as a page (Accept: text/html), both built from the same data.",
  ].join(' ');
}
