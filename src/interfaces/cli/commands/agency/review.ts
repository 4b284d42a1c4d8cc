import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ReviewOcr, type ReviewOcrResult } from '../../../../application/agency/review-ocr';
import { plural } from '../../../../domain/encoding/plural';
import { parseDay } from '../../flags';
import { helpText } from '../../help-text';

export default class AgencyReview extends BaseCommand {
  static summary = "Record the agency's review of a provider's Ongoing Certification Report (CCM-AGM-ROR), signed with the configured key.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> acme --ocr 2026-09-30',
    '<%= config.bin %> <%= command.id %> acme --ocr 2026-09-30 --reviewer "J. Doe, ISSO" --note "Two SCNs to follow up" --key agency-key.pem',
  ];
  static enableJsonFlag = true;
  static args = { provider: Args.string({ required: true, description: 'The provider, by its name in agency.providers[] of svc.config.json' }) };
  static flags = {
    ocr: Flags.string({
      summary: 'The reporting period end of the OCR reviewed (its reportPeriod.to), as a pulled OCR has it.',
      helpValue: '<date>',
      required: true,
    }),
    note: Flags.string({ summary: 'What the review found, kept with it.', helpValue: '<text>' }),
    reviewer: Flags.string({ summary: 'Who reviewed it.', helpValue: '<name>' }),
    key: Flags.string({
      summary: 'PEM private key that signs the review (EC P-256, Ed25519 or RSA ≥ 2048 bits); else SVC_SIGNING_KEY, else the development key.',
      helpValue: '<pem>',
    }),
  };

  async run(): Promise<ReviewOcrResult> {
    const { args, flags } = await this.parse(AgencyReview);
    const r = await this.resolve(ReviewOcr).execute({
      provider: args.provider,
      periodEnd: parseDay(flags.ocr, '--ocr'),
      ...(flags.note === undefined ? {} : { note: flags.note }),
      ...(flags.reviewer === undefined ? {} : { reviewer: flags.reviewer }),
      ...(flags.key === undefined ? {} : { key: flags.key }),
    });
    this.log(`Review of ${r.review.provider}'s OCR for the period ending ${r.review.ocrPeriodEnd} recorded (signed by ${r.review.signature.keyid})`);
    if (r.earlier.length > 0)
      this.log(
        `This OCR was reviewed before (${plural(r.earlier.length, 'review')}, the last at ${r.earlier.at(-1)!.reviewedAt}); this review is recorded beside ${r.earlier.length === 1 ? 'it' : 'them'}`,
      );
    return r;
  }
}
