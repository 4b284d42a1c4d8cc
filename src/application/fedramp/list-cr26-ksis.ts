import { inject, injectable } from 'tsyringe';
import { normalizeControlId } from '../../domain/catalog/ksi-catalog';
import { UsageError } from '../../domain/errors';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';

export interface ListCr26KsisInput {
  /** A CR26 theme (`IAM`, `ced`): `--area`. */
  area?: string;
  /** A control or enhancement (`ac-2`, `AC-2(1)`): the KSIs that list it. */
  control?: string;
}

export interface ListedCr26Ksi {
  id: string;
  theme: string;
  name: string;
  controls: string[];
}

export interface ListCr26KsisResult {
  catalog: 'cr26';
  release: { version: string; date: string };
  /** Counts of the release, and of the KSIs shown (`matched`, after --area / --control). */
  counts: { ksis: number; themes: number; matched: number };
  /** The themes of the KSIs shown, in the release's order. */
  themes: { id: string; name: string }[];
  /** Grouped by theme (themes in the release's order), by id within a theme. */
  ksis: ListedCr26Ksi[];
}

/** Browses the KSIs of the CR26 rules in use (`svc ksi list --catalog cr26`, DESIGN §12.1). */
@injectable()
export class ListCr26Ksis {
  constructor(@inject(FEDRAMP_RULES_SOURCE) private readonly source: FedrampRulesSource) {}

  async execute({ area, control }: ListCr26KsisInput): Promise<ListCr26KsisResult> {
    const rules = this.source.rules();
    let ksis = rules.ksis;
    if (area !== undefined) {
      const theme = area.trim().toUpperCase();
      const themes = rules.themes.map((t) => t.id);
      if (!themes.includes(theme))
        throw new UsageError('unknown-area', `--area ${area}: not a theme of CR26 ${rules.info.version}; use one of ${themes.join(', ')}`);
      ksis = ksis.filter((k) => k.theme === theme);
    }
    if (control !== undefined) {
      const id = normalizeControlId(control);
      if (id === undefined) throw new UsageError('bad-control-id', `--control ${control}: not a control id; write it like ac-2, ac-2.1 or AC-2(1)`);
      ksis = ksis.filter((k) => k.controls.includes(id));
    }
    const order = new Map(rules.themes.map((t, i) => [t.id, i]));
    const rank = (theme: string) => order.get(theme) ?? order.size;
    const shown = [...ksis].sort((a, b) => rank(a.theme) - rank(b.theme) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const used = new Set(shown.map((k) => k.theme));
    return {
      catalog: 'cr26',
      release: { version: rules.info.version, date: rules.info.date },
      counts: { ksis: rules.ksis.length, themes: rules.themes.length, matched: shown.length },
      themes: rules.themes.filter((t) => used.has(t.id)).map((t) => ({ id: t.id, name: t.name })),
      ksis: shown.map((k) => ({ id: k.id, theme: k.theme, name: k.name, controls: k.controls })),
    };
  }
}
