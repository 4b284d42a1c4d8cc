import type { Cr26Rules } from '../fedramp/cr26-rules';
import type { KsiCatalog, KsiDefinition } from './ksi-catalog';
import { officialDefinitions } from './official-definitions';

/**
 * Definitions for the KSIs of the CR26 rules in use (`KSI-IAM-APM`), made as officialDefinitions makes those of a
 * FedRAMP release: the controls CR26 lists, the family policies of those controls, the severity, frequency and owner
 * of the most severe family among them.
 */
export function cr26Definitions(rules: Pick<Cr26Rules, 'info' | 'ksis'>, catalog: KsiCatalog, fallbackOwner: string): KsiDefinition[] {
  const ksis = rules.ksis.map((k) => ({ id: k.id, theme: k.theme, name: k.name, statement: '', controls: k.controls, retired: false }));
  return officialDefinitions({ id: `CR26 ${rules.info.version}`, ksis }, catalog, fallbackOwner);
}
