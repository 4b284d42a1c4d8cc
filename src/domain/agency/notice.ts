import { markdownText } from '../encoding/markdown';
import type { Cr26Force, Cr26Notification } from '../fedramp/cr26-rules';
import type { AgencyFinding, PulledDocumentName } from './pulled-documents';
import type { RecomputedVulnerability } from './vulnerability-clock';

/** Whom a notice is to, and the rule that asks for it: AGU-USE-NFC (notify FedRAMP), AGU-USE-NPC (notify the provider). */
export const NOTICE_RULES = { fedramp: 'AGU-USE-NFC', provider: 'AGU-USE-NPC' } as const;
export type NoticeRecipient = keyof typeof NOTICE_RULES;
export const NOTICE_RECIPIENTS = Object.keys(NOTICE_RULES) as NoticeRecipient[];

/** The rule a notice cites, as the rules data has it (its statement only where the rules in use carry FedRAMP's sentences). */
export interface NoticeRule {
  id: string;
  name: string;
  force?: Cr26Force;
  notification: Cr26Notification[];
  statement?: string;
}

/** The document a concern rests on: its name, where it came from and the SHA-256 of the bytes read. */
export interface CitedDocument {
  name: PulledDocumentName;
  url: string;
  sha256?: string;
}

/** One concern: the rule it is about, what is wrong, and the document and field behind it. */
export interface Concern {
  /** `finding` (the latest pull's verification, level `action`) or `overdue` (a vulnerability overdue as recomputed). */
  source: 'finding' | 'overdue';
  rule: string;
  code: string;
  message: string;
  document?: CitedDocument;
  /** The JSON path or header within the document. */
  at?: string;
}

/** The concerns of a verification finding at level `action` (notices are information, not concerns). */
export function findingConcerns(findings: readonly AgencyFinding[], cite: (name: PulledDocumentName) => CitedDocument | undefined): Concern[] {
  return findings
    .filter((f) => f.level === 'action')
    .map((f) => {
      const document = f.document === undefined ? undefined : cite(f.document);
      return {
        source: 'finding' as const,
        rule: f.rule,
        code: f.code,
        message: f.message,
        ...(document === undefined ? {} : { document }),
        ...(f.at === undefined ? {} : { at: f.at }),
      };
    });
}

/** The concerns of vulnerabilities overdue as svc recomputes them, one each, citing the rule of its first reason. */
export function overdueConcerns(vulnerabilities: readonly RecomputedVulnerability[], document: CitedDocument): Concern[] {
  return vulnerabilities
    .filter((v) => v.overdue)
    .map((v) => ({
      source: 'overdue' as const,
      rule: v.due?.rule ?? 'VDR-TFR-PVR',
      code: 'vulnerability-overdue',
      message: `${v.id}${v.rating === undefined ? '' : ` (N${v.rating})`} is overdue as svc recomputes it: ${v.reasons.join('; ')}${v.providerSaysOverdue === false ? '; the provider reports it as not overdue' : ''}`,
      document,
      at: v.at,
    }));
}

export interface NoticeDraft {
  to: NoticeRecipient;
  rule: NoticeRule;
  provider: { name: string; fedrampId?: string; url?: string };
  /** The agency's name (agency.name of svc.config.json), when set. */
  agency?: string;
  /** ISO-8601 UTC: when the overdue vulnerabilities were recomputed. */
  now: string;
  /** The pull whose findings it reports. */
  pull: { seq: number; finished: string };
  concerns: Concern[];
}

function recipientLine(rule: NoticeRule): string {
  if (rule.notification.length === 0) return 'the party the rule names';
  return rule.notification
    .map((n) => `${markdownText(n.party)}${n.name === undefined ? '' : `: ${markdownText(n.name)}`} (${markdownText(n.method)}: ${markdownText(n.target)})`)
    .join('; ');
}

function cited(c: Concern): string[] {
  const lines: string[] = [];
  if (c.document !== undefined)
    lines.push(`   - Document: ${c.document.name}, ${markdownText(c.document.url)}${c.document.sha256 === undefined ? '' : `, SHA-256 ${c.document.sha256}`}`);
  if (c.at !== undefined) lines.push(`   - Field: ${markdownText(c.at)}`);
  return lines;
}

/**
 * The Markdown notification AGU-USE-NFC (to FedRAMP) or AGU-USE-NPC (to the provider) asks an agency to send: whom to
 * send it to and how (the rule's `notification`), the rule and its statement where the rules in use carry it, the
 * provider, then each concern with the document (URL, SHA-256) and field behind it. Text from the provider or its
 * documents is escaped (markdownText). With no concern it says there is none.
 */
export function noticeMarkdown(d: NoticeDraft): string {
  const r = d.rule;
  const lines = [
    `# Notification of concerns about ${markdownText(d.provider.name)}`,
    '',
    `- To: ${recipientLine(r)}`,
    `- From: ${d.agency === undefined ? 'the agency' : markdownText(d.agency)}`,
    `- Rule: ${r.id} ${markdownText(r.name)}${r.force === undefined ? '' : ` (${r.force})`}`,
    `- Provider: ${markdownText(d.provider.name)}${d.provider.fedrampId === undefined ? '' : `, FedRAMP ID ${markdownText(d.provider.fedrampId)}`}${d.provider.url === undefined ? '' : `, trust center ${markdownText(d.provider.url)}`}`,
    `- Drafted: ${d.now}, from pull ${d.pull.seq} (${d.pull.finished}); overdue vulnerabilities recomputed by svc from the provider's VDR and AVI, not taken from its overdueStatus`,
  ];
  if (r.statement !== undefined) lines.push('', `> ${markdownText(r.statement)}`);
  lines.push('', '## Concerns', '');
  if (d.concerns.length === 0) {
    lines.push(
      "No concern: the latest pull's verification found nothing the agency must act on, and no vulnerability is overdue as svc recomputes it. There is nothing to notify.",
    );
  } else {
    d.concerns.forEach((c, i) => lines.push(`${i + 1}. ${c.rule} (${markdownText(c.code)}): ${markdownText(c.message)}`, ...cited(c)));
  }
  return `${lines.join('\n')}\n`;
}
