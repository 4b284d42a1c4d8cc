import { agencyPatterns, type TrustedAuthorities } from '../../../domain/trust/agency-patterns';
import type { ConfiguredFedrampProfile } from '../../../domain/fedramp/profile';
import type { Principal } from './principal';

/**
 * The authenticator's `recognize` step (DESIGN §12.7, CDS-TRC-USH): a principal whose Kerberos realm, client
 * certificate chain (a CA of `fedramp.agencies[].issuers`, by fingerprint or key; an issuer given by name stands for the
 * CA of `trusted`, auth.mtls.ca, with exactly that subject) or proxy-asserted domain is one of an agency's in the
 * offering's profile gets that agency's name, and with it the `agency` role, with no one approving each user. Checks
 * the patterns at once, so a wrong one stops the start with a one-line error naming svc.config.json and the key
 * (InvalidInputError `invalid-config`).
 */
export function agencyRecognition(configured: ConfiguredFedrampProfile, trusted?: TrustedAuthorities): (principal: Principal) => Principal {
  const patterns = agencyPatterns(configured.profile.agencies ?? [], configured.file, trusted);
  if (patterns.size === 0) return (principal) => principal;
  return (principal) => {
    const agency = patterns.agencyOf(principal);
    return agency === undefined ? principal : { ...principal, agency };
  };
}
