import type { KsiDefinition } from '../catalog/ksi-catalog';

/** Canonical JSON of what the catalog maps a result to; arrays of ids are canonical as JSON.stringify writes them. */
export interface MappingText {
  mapped: string;
  controls: string;
  policies: string;
}

const UNMAPPED: MappingText = { mapped: 'false', controls: '[]', policies: '[]' };
const cache = new WeakMap<KsiDefinition, MappingText>();

/** Remembered per definition: a run writes the same few hundred mappings a million times. */
export function mappingText(definition: KsiDefinition | undefined): MappingText {
  if (!definition) return UNMAPPED;
  let text = cache.get(definition);
  if (!text) {
    text = { mapped: 'true', controls: JSON.stringify(definition.controls), policies: JSON.stringify(definition.policies.map((p) => p.id)) };
    cache.set(definition, text);
  }
  return text;
}
