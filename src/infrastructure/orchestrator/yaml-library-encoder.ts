import { stringify } from 'yaml';
import type { YamlEncoder } from '../../ports/yaml-encoder';

/** YAML by the `yaml` package; strings that would read as another type are quoted. */
export class YamlLibraryEncoder implements YamlEncoder {
  documents(values: readonly unknown[]): string {
    return values.map((value) => stringify(value, { lineWidth: 0 })).join('---\n');
  }
}
