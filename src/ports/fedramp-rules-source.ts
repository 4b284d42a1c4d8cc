import type { InjectionToken } from 'tsyringe';
import type { Cr26Rules } from '../domain/fedramp/cr26-rules';

/**
 * The FedRAMP Consolidated Rules 2026 in use (DESIGN §12.1): the data bundled with svc, or FedRAMP's official rules
 * file that `SVC_FEDRAMP_RULES` names, read and parsed at run time so that a newer release works without a new svc.
 * An official file gets the bundled aliases (re-resolved against it) and carries FedRAMP's statement sentences.
 */
export interface FedrampRulesSource {
  /** The rules in use. Throws what official() throws for the file SVC_FEDRAMP_RULES names. */
  rules(): Cr26Rules;
  /**
   * An official consolidated rules file (`--rules-file`): NotFoundError `file-not-found` when it does not exist (other read errors as fs errors are),
   * InvalidInputError `invalid-json` or `invalid-rules-file` when it is not one.
   */
  official(path: string): Cr26Rules;
}

export const FEDRAMP_RULES_SOURCE: InjectionToken<FedrampRulesSource> = Symbol('FedrampRulesSource');
