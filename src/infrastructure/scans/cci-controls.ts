import table from './data/cci-nist.json';

/** The version of DISA's CCI list the table was derived from (`2023-06-07`). */
export const CCI_LIST_VERSION: string = table.source.version;

/** How a CCI maps: by its Revision 5 reference, by its Revision 4 one (it has no Revision 5 reference), or not at all. */
type Basis = 'rev5' | 'rev4' | 'unmapped';

/** What a rule's CCIs say in NIST SP 800-53 terms. */
export interface CciControls {
  /** Each control once, in the order the CCIs name them. */
  controls: string[];
  /** CCIs mapped by their Revision 4 reference. */
  rev4: string[];
  /** CCIs of DISA's list with no 800-53 reference of revision 4 or 5. */
  unmapped: string[];
  /** CCIs DISA's list does not have (a newer list, or a typing error). */
  unknown: string[];
}

let index: Map<string, { basis: Basis; controls: string[] }> | undefined;

/** CCI id → its controls, built from data/cci-nist.json (scripts/build-cci.js) the first time it is asked for. */
function cciIndex(): Map<string, { basis: Basis; controls: string[] }> {
  if (index) return index;
  const built = new Map<string, { basis: Basis; controls: string[] }>();
  for (const basis of ['rev5', 'rev4'] as const) {
    for (const [control, ccis] of Object.entries(table[basis] as Record<string, string>)) {
      for (const cci of ccis.split(' ')) {
        const known = built.get(cci) ?? { basis, controls: [] };
        known.controls.push(control);
        built.set(cci, known);
      }
    }
  }
  for (const cci of table.unmapped.split(' ')) built.set(cci, { basis: 'unmapped', controls: [] });
  return (index = built);
}

/**
 * The NIST SP 800-53 controls of CCI ids (`CCI-000366` → `cm-6`), through DISA's CCI list: a CCI's Revision 5
 * reference, else its Revision 4 reference; the CCIs that map to nothing are listed, never dropped.
 */
export function controlsOfCcis(ccis: Iterable<string>): CciControls {
  const result: CciControls = { controls: [], rev4: [], unmapped: [], unknown: [] };
  const controls = new Set<string>();
  for (const cci of new Set(ccis)) {
    const known = cciIndex().get(cci.trim().toUpperCase());
    if (!known) result.unknown.push(cci);
    else if (known.basis === 'unmapped') result.unmapped.push(cci);
    else {
      if (known.basis === 'rev4') result.rev4.push(cci);
      for (const control of known.controls) controls.add(control);
    }
  }
  result.controls = [...controls];
  return result;
}
