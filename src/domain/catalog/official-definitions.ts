import { maxSeverity, type Severity } from '../governance/severity';
import type { OfficialRelease } from './frmr-release';
import type { FamilyDefinition, KsiCatalog, KsiDefinition } from './ksi-catalog';

/**
 * Definitions for the official KSIs of a FedRAMP release (`--catalog <FRMR file>`), so results that use
 * official ids (`KSI-IAM-MFA`, `KSI-IAM-01`) are mapped. Each takes the controls the release lists; its
 * policies are the family policies of those controls; severity, frequency and owner come from the most
 * severe family among them (the first listed on a tie). A KSI that lists no catalog family keeps the
 * fallback owner at Medium every 90 days.
 */
export function officialDefinitions(release: OfficialRelease, catalog: KsiCatalog, fallbackOwner: string): KsiDefinition[] {
  return release.ksis
    .filter((k) => !k.retired)
    .map((k) => {
      const families: FamilyDefinition[] = [];
      for (const control of k.controls) {
        const family = catalog.family(control.split('-')[0].toUpperCase());
        if (family && !families.includes(family)) families.push(family);
      }
      const lead = families.reduce<FamilyDefinition | undefined>(
        (best, f) => (!best || maxSeverity(best.severity, f.severity) !== best.severity ? f : best),
        undefined,
      );
      const severity: Severity = lead?.severity ?? 'Medium';
      return {
        id: k.id,
        title: k.name,
        family: k.theme,
        control: k.controls[0] ?? '',
        controls: k.controls,
        policies: families.map((f) => f.policy),
        severity,
        frequency_days: families.length > 0 ? Math.min(...families.map((f) => f.frequency_days)) : 90,
        owner: lead?.owner ?? fallbackOwner,
        official_ksis: [k.id],
      };
    });
}
