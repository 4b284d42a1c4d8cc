import type { EnforcementAction } from '../../domain/enforcement/epl-policy';
import type { EnforcementAdapter, EnforcementAdapterResult, EnforcementContext } from '../../ports/enforcement-adapter';

/**
 * Stands in when no adapter handles an action: it changes nothing and says so. The runtime ends such a policy
 * FAILED with reason "no adapter", whatever a re-evaluation would say, so a missing adapter never reads as
 * REMEDIATED.
 */
export class NoOpEnforcementAdapter implements EnforcementAdapter {
  readonly name = 'no-op';

  canHandle(_action: EnforcementAction): boolean {
    return true;
  }

  async enforce(context: EnforcementContext): Promise<EnforcementAdapterResult> {
    return { changed: false, detail: `no adapter handles action "${context.action.name}"; nothing was changed` };
  }
}
