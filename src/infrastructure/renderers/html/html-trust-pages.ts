import { injectable } from 'tsyringe';
import type { TrustPage, TrustSection } from '../../../domain/trust/trust-page';
import type { TrustPages } from '../../../ports/trust-pages';
import { escapeHtml, noData, renderPage, section, sortableTable } from './html-page';

const LINK = /^https?:\/\/[^\s<>"']+$/;

/** The trust center's pages on the shared self-contained page (html-page.ts): every value escaped, http(s) values as links. */
@injectable()
export class HtmlTrustPages implements TrustPages {
  page(model: TrustPage): string {
    return renderPage({ title: model.title, facts: model.facts, tool: model.tool, generatedAt: model.generatedAt, main: model.sections.map(sectionHtml).join('\n') });
  }
}

function sectionHtml(s: TrustSection): string {
  if (s.kind === 'fields') {
    return section(s.id, s.heading, `<dl class="facts">${s.fields.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${value(f.value)}</dd>`).join('')}</dl>`);
  }
  if (s.kind === 'list') {
    return section(s.id, s.heading, s.items.length === 0 ? noData(s.empty) : `<ul>${s.items.map((item) => `<li>${value(item)}</li>`).join('')}</ul>`);
  }
  return section(
    s.id,
    s.heading,
    sortableTable({
      id: `${s.id}-t`,
      labelledBy: `${s.id}-h`,
      columns: s.columns.map((c) => ({ label: c.label, kind: c.kind })),
      rows: s.rows.map((row) => row.map((cell) => (typeof cell === 'string' && LINK.test(cell) ? { html: value(cell), sort: cell } : cell))),
      empty: s.empty,
      filter: s.rows.length > 10,
    }),
  );
}

/** Text, or a link when the whole value is an http(s) URL (following it is the reader's choice: the page loads nothing). */
function value(text: string): string {
  return LINK.test(text) ? `<a href="${escapeHtml(text)}" rel="noopener noreferrer">${escapeHtml(text)}</a>` : escapeHtml(text);
}
