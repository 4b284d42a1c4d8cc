import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { WritePackage, type WritePackageResult } from '../../../../application/fedramp/write-package';
import { officialCatalogFlag } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { plural } from '../../../../domain/encoding/plural';
import { helpText } from '../../help-text';

export default class FedrampPackage extends BaseCommand {
  static summary =
    "Write the FedRAMP certification package of the run store's state: CPO, SDR, OCR, VDR, AVI, history, their Markdown twins, a manifest and a signed DSSE envelope.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --out-dir package --key keys/provider.pem',
    '<%= config.bin %> <%= command.id %> results.json --out-dir package --key keys/provider.pem',
    '<%= config.bin %> <%= command.id %> out/bundle --out-dir package --initial --substrate snapshot.json',
    '<%= config.bin %> <%= command.id %> results.json --out-dir package --class C --now 2026-11-25 --json',
  ];
  static enableJsonFlag = true;
  static args = {
    input: Args.string({
      required: false,
      description:
        "Normalized report, evidence-bundle.json, or auditor bundle directory: the run store's state must be it alone (recorded, the one source), or empty. Leave it out to package the store's state, every source's latest run.",
    }),
  };
  static flags = {
    'out-dir': Flags.string({ summary: 'Directory to write the package into (created, or its files replaced).', helpValue: '<dir>', required: true }),
    initial: Flags.boolean({ summary: 'An initial package: refuse statuses older than 7 days (FRC-APP-FCP).' }),
    key: Flags.string({ summary: 'PEM private key that signs the package (EC P-256, Ed25519 or RSA ≥ 2048 bits).', helpValue: '<pem>' }),
    redact: Flags.boolean({ summary: 'Replace resource names in the vulnerability documents with stable hashes (VER-RPT-NID).' }),
    substrate: Flags.string({ summary: 'Snapshot of svc substrate walk: writes the information resources and flows.', helpValue: '<snapshot.json>' }),
    schemas: Flags.string({
      summary: "Directory of FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
    ...profileFlags,
    catalog: officialCatalogFlag,
  };

  async run(): Promise<WritePackageResult> {
    const { args, flags } = await this.parse(FedrampPackage);
    const r = await this.resolve(WritePackage).execute({
      input: args.input,
      outDir: flags['out-dir'],
      initial: flags.initial,
      key: flags.key,
      substrate: flags.substrate,
      schemas: flags.schemas,
      catalog: flags.catalog,
      redact: flags.redact,
      ...parseProfileFlags(flags),
    });
    if (!r.written) {
      this.log(
        `Refusing an initial package (FRC-APP-FCP): ${r.stale.length} ${r.stale.length === 1 ? 'status is' : 'statuses are'} older than ${r.days} days:`,
      );
      for (const line of r.stale) this.log(`- ${line}`);
      this.log(`Nothing was written to ${r.out_dir}; run the scans again, record the run, and write the package`);
      this.exitWithFindings(true);
      return r;
    }
    if (r.key.kind === 'development') {
      this.warning(
        `no signing key given (--key or SVC_SIGNING_KEY): signed with the development key ${r.key.path}${r.key.created ? ', created now' : ''}; use your own key for a real package`,
      );
    }
    this.log(`Package written to ${r.out_dir} (${plural(r.files.length + 1, 'file')}, aggregate ${r.aggregate_hash})`);
    for (const f of r.files) this.log(`- ${f.name} ${f.sha256}`);
    this.log(`Signed ${r.envelope} (${r.algorithm}, key ${r.keyid})`);
    this.log(
      `SDR: ${plural(r.sdr.requirements.total, 'rule')} (no statement supplied ${r.sdr.requirements.none})${r.sdr.profile.type === '20x' ? `, ${plural(r.sdr.ksis.total, 'KSI')} (no evidence ${r.sdr.ksis.no_evidence})` : ''}`,
    );
    this.log(
      r.validated.schemas === undefined
        ? `Note: ${r.validated.note}`
        : r.validated.carried === undefined
          ? `Validated against FedRAMP's schemas in ${r.validated.schemas}`
          : `Validated against FedRAMP's schemas of ${r.validated.carried}, carried by svc (manifest.json records each document's $schemaVersion and sha256)`,
    );
    this.log(
      'input' in r.judged
        ? `Judged: ${r.judged.input}${r.judged.recorded ? ", the run store's state" : ' (the run store is empty)'}`
        : `Judged: the run store's state, ${r.judged.sources.map((s) => `${s.source} (run ${s.seq}, as of ${s.as_of})`).join('; ')}`,
    );
    for (const note of r.notes ?? []) this.log(`Note: ${note}`);
    return r;
  }
}
