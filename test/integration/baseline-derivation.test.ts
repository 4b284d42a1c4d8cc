import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_LEVELS } from '../../src/domain/oscal/baseline';
import { BundledCatalogSource } from '../../src/infrastructure/catalog/bundled-catalog-source';

const { derive, render } = require('../../scripts/build-baselines.js') as { derive: (ref: string) => BaselineFile; render: (data: BaselineFile) => string };

interface BaselineFile {
  source: { level: string; file: string; sha256: string; title: string; version: string }[];
  baselines: Record<(typeof BASELINE_LEVELS)[number], { title: string; controls: string[] }>;
}

const ROOT = join(__dirname, '..', '..');
const REFERENCE = join(ROOT, '..', 'shared', 'reference');
const DATA = join(ROOT, 'src', 'domain', 'catalog', 'data', 'fedramp-baselines.json');
const RESOLVED_MODERATE = join(REFERENCE, 'oscal', 'content', 'fedramp-rev5', 'FedRAMP_rev5_MODERATE-baseline-resolved-profile_catalog-min.json');

const checkedIn = readFileSync(DATA, 'utf8');
const data = JSON.parse(checkedIn) as BaselineFile;

interface CatalogControl {
  id: string;
  controls?: CatalogControl[];
}

function controlIds(controls: readonly CatalogControl[] = []): string[] {
  return controls.flatMap((c) => [c.id, ...controlIds(c.controls)]);
}

describe('the checked-in FedRAMP rev5 baselines', () => {
  it('are what scripts/build-baselines.js derives from the FedRAMP profiles, byte for byte', () => {
    expect(existsSync(REFERENCE)).toBe(true);
    expect(render(derive(REFERENCE))).toBe(checkedIn);
  });

  it("pass the script's own --check", () => {
    expect(() => execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-baselines.js'), REFERENCE, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('select 156, 323 and 410 controls, each level inside the next', () => {
    const { low, moderate, high } = data.baselines;
    expect([low.controls.length, moderate.controls.length, high.controls.length]).toEqual([156, 323, 410]);
    expect(low.controls.filter((c) => !moderate.controls.includes(c))).toEqual([]);
    expect(moderate.controls.filter((c) => !high.controls.includes(c))).toEqual([]);
    for (const level of BASELINE_LEVELS) expect(new Set(data.baselines[level].controls).size).toBe(data.baselines[level].controls.length);
  });

  it('list controls in NIST catalog order, base control before its enhancements', () => {
    const moderate = data.baselines.moderate.controls;
    expect(moderate.slice(0, 12)).toEqual(['ac-1', 'ac-2', 'ac-2.1', 'ac-2.2', 'ac-2.3', 'ac-2.4', 'ac-2.5', 'ac-2.7', 'ac-2.9', 'ac-2.12', 'ac-2.13', 'ac-3']);
    expect(data.baselines.high.controls.at(-1)).toBe('sr-12');
    for (const level of BASELINE_LEVELS) for (const id of data.baselines[level].controls) expect(id).toMatch(/^[a-z]{2}-\d+(\.\d+)?$/);
  });

  it('name the FedRAMP profile each was read from, with its digest', () => {
    expect(data.source.map((s) => [s.level, s.file, s.title])).toEqual([
      ['low', 'FedRAMP_rev5_LOW-baseline_profile.json', 'FedRAMP Rev 5 Low Baseline'],
      ['moderate', 'FedRAMP_rev5_MODERATE-baseline_profile.json', 'FedRAMP Rev 5 Moderate Baseline'],
      ['high', 'FedRAMP_rev5_HIGH-baseline_profile.json', 'FedRAMP Rev 5 High Baseline'],
    ]);
    for (const s of data.source) expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('agree with the FedRAMP Moderate resolved catalog', () => {
    const catalog = (JSON.parse(readFileSync(RESOLVED_MODERATE, 'utf8')) as { catalog: { groups: { controls?: CatalogControl[] }[] } }).catalog;
    const resolved = new Set(catalog.groups.flatMap((g) => controlIds(g.controls)));
    expect(data.baselines.moderate.controls.filter((c) => !resolved.has(c))).toEqual([]);
  });

  it('are what BundledCatalogSource serves', () => {
    const moderate = new BundledCatalogSource().baseline('moderate');
    expect(moderate.level).toBe('moderate');
    expect(moderate.title).toBe('FedRAMP Rev 5 Moderate Baseline');
    expect(moderate.controls).toHaveLength(323);
    expect(moderate.controls.slice(0, 3)).toEqual(['ac-1', 'ac-2', 'ac-2.1']);
    expect(new BundledCatalogSource().baseline('low').controls).toHaveLength(156);
  });
});
