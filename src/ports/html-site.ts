import type { InjectionToken } from 'tsyringe';
import type { DocumentationPackage, PackageFile } from '../domain/documents/documentation-package';

/** The static auditor portal: self-contained HTML pages that work from file:// with no network. */
export interface HtmlSite {
  /** index.html, evidence.html, findings.html, poam.html and controls/<id>.html. */
  pages(model: DocumentationPackage): PackageFile[];
  /** hashes.html: the SHA-256 of every other file of the site. */
  hashes(model: DocumentationPackage, files: readonly { path: string; sha256: string }[]): PackageFile;
}

export const HTML_SITE: InjectionToken<HtmlSite> = Symbol('HtmlSite');
