import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import {
  findingConcerns,
  noticeMarkdown,
  NOTICE_RULES,
  overdueConcerns,
  type CitedDocument,
  type Concern,
  type NoticeRecipient,
  type NoticeRule,
} from '../../domain/agency/notice';
import type { PulledDocumentName } from '../../domain/agency/pulled-documents';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { InvalidInputError } from '../../domain/errors';
import type { Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { writeAll } from '../shared/write-all';
import { providerClass, recomputedReports } from './diff-provider';
import { ProviderDocuments } from './provider-documents';
import { pulledProvider } from './review-ocr';

export interface DraftNoticeInput {
  provider: string;
  to: NoticeRecipient;
  /** `--out`: the Markdown file; else the result carries the text to print. */
  out?: string;
  /** `--now`: recompute the overdue vulnerabilities at this time instead of the clock's. */
  now?: Date;
}

export interface DraftNoticeResult {
  to: NoticeRecipient;
  rule: NoticeRule;
  concerns: Concern[];
  markdown: string;
  /** The file written, with --out. */
  file?: WrittenFile & { path: string };
}

/** The rule a notice cites, from the rules in use; InvalidInputError when the release holds none by that id. */
export function noticeRule(rules: Pick<Cr26Rules, 'rules' | 'info' | 'statements'>, id: string): NoticeRule {
  const rule = rules.rules.find((r) => r.id === id);
  if (rule === undefined)
    throw new InvalidInputError(
      'no-rule',
      `CR26 ${rules.info.version} holds no ${id}, which svc agency notice cites; use a release that holds it (SVC_FEDRAMP_RULES)`,
    );
  const statement = rules.statements?.[id]?.text;
  return {
    id,
    name: rule.name,
    ...(rule.force === undefined ? {} : { force: rule.force }),
    notification: rule.notification ?? [],
    ...(statement === undefined ? {} : { statement }),
  };
}

/**
 * `svc agency notice <provider> --to fedramp|provider` (AGU-USE-NFC, AGU-USE-NPC; DESIGN §14): drafts the Markdown
 * notification of the concerns a provider gives the agency: the latest pull's findings the agency must act on, and the
 * vulnerabilities of its current VDR and AVI overdue as svc recomputes them at `now` for its class; each cites the
 * document (URL, SHA-256) and the field behind it. With no concern the draft says so.
 */
@injectable()
export class DraftNotice {
  constructor(
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: DraftNoticeInput): Promise<DraftNoticeResult> {
    const rules = this.rules.rules();
    const rule = noticeRule(rules, NOTICE_RULES[input.to]);
    const pulls = await pulledProvider(this.store, input.provider);
    const docs = new ProviderDocuments(this.store, input.provider, pulls);
    const latest = docs.latest!;
    const now = input.now ?? this.clock.now();
    const cite = (name: PulledDocumentName): CitedDocument | undefined => {
      const current = docs.stored(name);
      if (current !== undefined) return { name, url: current.stored.url, sha256: current.stored.sha256 };
      const asked = latest.documents.find((d) => d.name === name);
      return asked === undefined ? undefined : { name, url: asked.url };
    };
    const reports = await recomputedReports(docs, () => providerClass(this.config, docs), rules, now);
    const concerns = [
      ...findingConcerns(latest.findings, cite),
      ...(reports.vdr.length === 0 ? [] : overdueConcerns(reports.vdr, cite('vdr')!)),
      ...(reports.avi.length === 0 ? [] : overdueConcerns(reports.avi, cite('avi')!)),
    ];
    const settings = this.config.settings();
    const configured = settings.providers.find((p) => p.name === input.provider);
    const markdown = noticeMarkdown({
      to: input.to,
      rule,
      provider: {
        name: input.provider,
        ...(configured?.fedrampId === undefined ? {} : { fedrampId: configured.fedrampId }),
        url: configured?.url ?? latest.url,
      },
      ...(settings.name === undefined ? {} : { agency: settings.name }),
      now: isoSeconds(now),
      pull: { seq: latest.seq, finished: latest.finished },
      concerns,
    });
    if (input.out === undefined) return { to: input.to, rule, concerns, markdown };
    const file = await writeAll(await this.writer.open(input.out), (s) => s.write(markdown));
    return { to: input.to, rule, concerns, markdown, file: { ...file, path: input.out } };
  }
}
