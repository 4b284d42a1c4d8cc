/** Who implements a control of a SaaS offering: the provider alone (inherited), the customer alone, or both. */
export type Responsibility = 'provider' | 'customer' | 'shared';

export const RESPONSIBILITIES: readonly Responsibility[] = ['provider', 'shared', 'customer'];

/**
 * svc's default rule, by NIST SP 800-53 family (docs/generate.md states it; a later issue makes it configurable):
 * physical and media families (PE, MA, MP) are the provider's and inherited; the agency-policy families (AT, PS,
 * PL, PM) are the customer's; every other family (AC, IA, AU, CM, SC, ...) is shared by a SaaS tenant.
 */
const BY_FAMILY: Readonly<Record<string, Responsibility>> = {
  pe: 'provider',
  ma: 'provider',
  mp: 'provider',
  at: 'customer',
  ps: 'customer',
  pl: 'customer',
  pm: 'customer',
};

/** The default rule in one sentence, for the documents that apply it. */
export const RESPONSIBILITY_RULE = 'svc default by family: PE, MA, MP provider (inherited); AT, PS, PL, PM customer (agency policy); every other family shared';

/** What each party does for a control, by responsibility: the CRM's two prose columns. */
export const RESPONSIBILITY_TEXT: Readonly<Record<Responsibility, { provider: string; customer: string }>> = {
  provider: {
    provider: 'Implements and operates the control for the whole offering; customers inherit it.',
    customer: 'None: inherited from the provider.',
  },
  shared: {
    provider: 'Implements the control in the platform and supplies the KSI evidence.',
    customer: 'Configures and operates the control in its own tenant (accounts, settings, reviews).',
  },
  customer: {
    provider: 'None beyond documentation that supports the customer.',
    customer: 'Implements the control through its own policies, procedures and people.',
  },
};

/** The responsibility of a control id (`ac-2.1`, `pe-3`) under the default rule. */
export function responsibilityOf(controlId: string): Responsibility {
  return BY_FAMILY[controlId.slice(0, 2).toLowerCase()] ?? 'shared';
}
