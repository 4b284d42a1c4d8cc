import type { InjectionToken } from 'tsyringe';
import type { DocumentationPackage, PackageFile } from '../domain/documents/documentation-package';

/** The Markdown documentation package: index.md, areas/<AREA>.md, controls/<id>.md, poam.md, linked relatively. */
export interface MarkdownDocs {
  render(model: DocumentationPackage): PackageFile[];
}

export const MARKDOWN_DOCS: InjectionToken<MarkdownDocs> = Symbol('MarkdownDocs');
