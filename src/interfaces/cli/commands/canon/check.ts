import { BaseCommand } from '../../base-command';
import { CheckCanon, type CheckCanonResult } from '../../../../application/catalog/check-canon';
import type { ReleaseComparison } from '../../../../domain/catalog/catalog-consistency';
import { EXIT } from '../../../shared/error-mapping';
import { officialCatalogFlag } from '../../flags';
import { plural } from '../../../../domain/encoding/plural';

export default class CanonCheck extends BaseCommand {
  static summary = 'Prove the built-in KSI catalog consistent; with --catalog, compare a FedRAMP release with it.';
  static reads = 'the built-in KSI catalog and the CR26 rules in use (bundled, or SVC_FEDRAMP_RULES); --catalog names a FedRAMP release to compare';
  static description =
    'Exit 1 when the catalog breaks a rule of docs/catalog.md or the CR26 rules in use (bundled, or SVC_FEDRAMP_RULES) do not hang together (docs/fedramp.md). A release comparison is information and does not change the exit code.';
  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --catalog FRMR.documentation.json'];
  static enableJsonFlag = true;
  static flags = { catalog: { ...officialCatalogFlag, summary: 'FedRAMP FRMR file to compare with the crosswalk.' } };

  async run(): Promise<CheckCanonResult> {
    const { flags } = await this.parse(CanonCheck);
    const result = await this.resolve(CheckCanon).execute({ release: flags.catalog });
    const { catalog, crosswalk, consistency, cr26 } = result;
    this.log(`Catalog: ${plural(catalog.ksis, 'KSI')} in ${plural(catalog.families, 'family', 'families')} (${catalog.baseline} ${catalog.version})`);
    this.log(`Crosswalk: ${plural(crosswalk.official, 'official KSI')}, current release ${crosswalk.current_release}`);
    this.log(`Consistency: ${consistency.ok ? 'OK' : plural(consistency.problems.length, 'problem')}`);
    for (const problem of consistency.problems) this.log(`- ${problem}`);
    const c = cr26.consistency;
    const verdict = c.ok ? 'consistent' : plural(c.problems.length, 'problem');
    this.log(
      `CR26 rules ${cr26.version}: ${plural(c.counts.ksis, 'KSI')} in ${plural(c.counts.themes, 'theme')}, ${plural(c.counts.rules, 'rule')} in ${plural(c.counts.families, 'family', 'families')}; ${verdict}`,
    );
    for (const problem of c.problems) this.log(`- ${problem}`);
    if (result.release) this.printRelease(result.release);
    if (!consistency.ok || !c.ok) process.exitCode = EXIT.findings;
    return result;
  }

  private printRelease(r: ReleaseComparison): void {
    const list = (ids: string[]) => (ids.length > 0 ? ` (${ids.join(', ')})` : '');
    this.log(`Release ${r.release} compared with ${r.compared_with}`);
    this.log(`Added: ${r.added.length}${list(r.added)}`);
    this.log(`Removed: ${r.removed.length}${list(r.removed)}`);
    this.log(`Renamed (crosswalk -> release): ${r.renamed.length}${list(r.renamed.map((x) => `${x.from} -> ${x.to}`))}`);
    this.log(`Changed: ${r.changed.length}${list(r.changed.map((x) => `${x.id}: ${x.fields.join('+')}`))}`);
    const c = r.counts;
    this.log(`Coverage of ${plural(c.active, 'active KSI')}: full ${c.full}, partial ${c.partial}, none ${c.none}, no controls ${c['no-controls']}`);
    for (const k of r.coverage.filter((x) => x.coverage === 'partial' || x.coverage === 'none')) {
      this.log(`- ${k.id} ${k.coverage} ${k.covered}/${k.total}: not in the baseline ${k.missing.join(', ')}`);
    }
  }
}
