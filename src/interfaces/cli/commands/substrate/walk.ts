import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { WalkSubstrate } from '../../../../application/substrate/walk-substrate';
import { RESOURCE_CATEGORIES, type Snapshot } from '../../../../domain/substrate/snapshot';

export default class SubstrateWalk extends BaseCommand {
  static summary = 'Snapshot a configuration tree: the sha256 of every file, the resources in it, and a Merkle root.';
  static description =
    'Walks JSON, YAML, Terraform state, Kubernetes manifests and ScubaGear ProviderSettingsExport.json; honours .gitignore and .svcignore; never follows a symbolic link out of the tree. --json prints the snapshot.';
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/substrate/tree-a',
    '<%= config.bin %> <%= command.id %> ./config --out snapshots/today.json',
  ];
  static enableJsonFlag = true;
  static args = {
    dir: Args.string({ required: true, description: 'The configuration directory to walk' }),
  };
  static flags = {
    out: Flags.string({ summary: 'Write the snapshot (canonical JSON) to this file, atomically.' }),
  };

  async run(): Promise<Snapshot> {
    const { args, flags } = await this.parse(SubstrateWalk);
    const { snapshot, unparsed } = await this.resolve(WalkSubstrate).execute({ dir: args.dir, out: flags.out });
    this.log(`Walking ${args.dir} ...`); // after the walk, so an input error prints nothing to stdout
    for (const file of unparsed) this.warning(`${file.path}: ${file.reason}`);
    const { counts } = snapshot;
    this.log(`Files: ${counts.files}`);
    this.log(`Resources: ${counts.resources} (${RESOURCE_CATEGORIES.map((c) => `${c} ${counts.categories[c]}`).join(', ')})`);
    const skipped = snapshot.skipped.map((s) => `${s.path}: ${s.reason}`).join(', ');
    this.log(`Skipped: ${counts.skipped}${skipped === '' ? '' : ` (${skipped})`}`);
    this.log(`Merkle root: ${snapshot.merkle_root}`);
    if (flags.out !== undefined) this.log(`Snapshot written to ${flags.out}`);
    return snapshot;
  }
}
