/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { CONFIG_TREE_READER } from '../../ports/config-tree-reader';
import { HTML_RENDERER } from '../../ports/html-renderer';
import { HTML_SITE } from '../../ports/html-site';
import { MARKDOWN_DOCS } from '../../ports/markdown-docs';
import { POAM_WORKBOOK } from '../../ports/poam-workbook';
import { PRESENTATIONS } from '../../ports/presentations';
import { SBOM_GENERATOR } from '../../ports/sbom-generator';
import { TRUST_PAGES } from '../../ports/trust-pages';
import { UUIDS } from '../../ports/uuids';
import { WORD_DOCUMENTS } from '../../ports/word-documents';
import { WORKBOOKS } from '../../ports/workbooks';
import { lazy } from './lazy';

/**
 * The document renderers (HTML, Word, PowerPoint, Excel, Markdown, CycloneDX) and the configuration tree reader of
 * the substrate commands: each library loads only for the commands that write its format (exceljs alone takes about
 * 300 ms: only poam-export, generate poam and generate crm|inventory pay for it).
 */
export function registerDocuments(container: DependencyContainer): void {
  lazy(
    container,
    HTML_RENDERER,
    () => require('../renderers/html/html-dashboard-renderer') as typeof import('../renderers/html/html-dashboard-renderer'),
    (m) => new m.HtmlDashboardRenderer(),
  );
  lazy(
    container,
    TRUST_PAGES,
    () => require('../renderers/html/html-trust-pages') as typeof import('../renderers/html/html-trust-pages'),
    (m) => new m.HtmlTrustPages(),
  );
  lazy(
    container,
    POAM_WORKBOOK,
    () => require('../renderers/xlsx/exceljs-poam-workbook') as typeof import('../renderers/xlsx/exceljs-poam-workbook'),
    (m) => new m.ExceljsPoamWorkbook(),
  );
  lazy(
    container,
    CONFIG_TREE_READER,
    () => require('../substrate/fs-config-tree-reader') as typeof import('../substrate/fs-config-tree-reader'),
    (m) => new m.FsConfigTreeReader(),
  );
  lazy(
    container,
    WORD_DOCUMENTS,
    () => require('../renderers/docx/docx-word-documents') as typeof import('../renderers/docx/docx-word-documents'),
    (m) => new m.DocxWordDocuments(),
  );
  lazy(
    container,
    PRESENTATIONS,
    () => require('../renderers/pptx/pptxgenjs-presentations') as typeof import('../renderers/pptx/pptxgenjs-presentations'),
    (m) => new m.PptxgenjsPresentations(),
  );
  lazy(
    container,
    SBOM_GENERATOR,
    () => require('../sbom/cyclonedx-sbom-generator') as typeof import('../sbom/cyclonedx-sbom-generator'),
    (m, c) => new m.CyclonedxSbomGenerator({ root: resolve(__dirname, '..', '..', '..'), uuids: c.resolve(UUIDS) }),
  );
  lazy(
    container,
    WORKBOOKS,
    () => require('../renderers/xlsx/exceljs-workbooks') as typeof import('../renderers/xlsx/exceljs-workbooks'),
    (m) => new m.ExceljsWorkbooks(),
  );
  lazy(
    container,
    MARKDOWN_DOCS,
    () => require('../renderers/markdown/markdown-docs-renderer') as typeof import('../renderers/markdown/markdown-docs-renderer'),
    (m) => new m.MarkdownDocsRenderer(),
  );
  lazy(
    container,
    HTML_SITE,
    () => require('../renderers/html/html-site-renderer') as typeof import('../renderers/html/html-site-renderer'),
    (m) => new m.HtmlSiteRenderer(),
  );
}
