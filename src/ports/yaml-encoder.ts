import type { InjectionToken } from 'tsyringe';

/** YAML 1.2 text of plain data: several documents separated by `---`. */
export interface YamlEncoder {
  documents(values: readonly unknown[]): string;
}

export const YAML_ENCODER: InjectionToken<YamlEncoder> = Symbol('YamlEncoder');
