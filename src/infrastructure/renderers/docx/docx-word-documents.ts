import {
  AlignmentType,
  Document,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableOfContents,
  TableRow,
  TextRun,
  WidthType,
  type FileChild,
} from 'docx';
import type { WordBlock, WordDocumentModel } from '../../../domain/documents/word-models';
import type { WordDocuments } from '../../../ports/word-documents';
import { stampZipEntries } from '../zip-timestamps';

const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2 } as const;

/**
 * Word documents with the docx library: a Title paragraph, Heading 1/2 styles, a table of contents field that Word
 * fills in on opening (updateFields), tables with repeated header rows, and "Page n of m" in the footer.
 */
export class DocxWordDocuments implements WordDocuments {
  async render(model: WordDocumentModel): Promise<Uint8Array> {
    const document = new Document({
      title: model.title,
      subject: model.subject,
      creator: model.creator,
      lastModifiedBy: model.creator,
      features: { updateFields: true },
      sections: [
        {
          footers: {
            default: new Footer({
              children: [
                new Paragraph({
                  alignment: AlignmentType.CENTER,
                  children: [new TextRun({ children: ['Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES] })],
                }),
              ],
            }),
          },
          children: [new Paragraph({ heading: HeadingLevel.TITLE, text: model.title }), ...model.blocks.map(toWord)],
        },
      ],
    });
    // docx stamps the core properties with the time of writing: they are written from the model instead.
    const bytes = new Uint8Array(await Packer.toBuffer(document, false, [{ path: 'docProps/core.xml', data: coreProperties(model) }]));
    stampZipEntries(bytes, new Date(model.created));
    return bytes;
  }
}

function toWord(block: WordBlock): FileChild {
  switch (block.kind) {
    case 'toc':
      return new TableOfContents(block.title, { hyperlink: true, headingStyleRange: '1-2' });
    case 'heading':
      return new Paragraph({ heading: HEADINGS[block.level], text: block.text });
    case 'paragraph':
      return new Paragraph({ text: block.text });
    case 'table':
      return new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: [
          new TableRow({ tableHeader: true, children: block.header.map((text) => cell(text, true)) }),
          ...block.rows.map((row) => new TableRow({ children: row.map((text) => cell(text, false)) })),
        ],
      });
  }
}

function cell(text: string, bold: boolean): TableCell {
  return new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold })] })] });
}

/** docProps/core.xml (ECMA-376 Part 2 §11) with the model's time as created and modified. */
function coreProperties(model: WordDocumentModel): string {
  const text = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
  const time = (name: string) => `<${name} xsi:type="dcterms:W3CDTF">${escapeXml(model.created)}</${name}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    text('dc:title', model.title),
    text('dc:subject', model.subject),
    text('dc:creator', model.creator),
    text('cp:lastModifiedBy', model.creator),
    time('dcterms:created'),
    time('dcterms:modified'),
    '</cp:coreProperties>',
  ].join('');
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
