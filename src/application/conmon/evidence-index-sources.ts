import { jsonText } from '../../domain/encoding/json-chunks';
import { LIST_PAGE_SIZE } from '../../domain/paging/paged-list';
import {
  bucketCount,
  bucketDocumentName,
  EVIDENCE_INDEX_BUCKET_TYPE,
  EVIDENCE_INDEX_DOCUMENT,
  evidenceIndexHeader,
  EvidenceIndexBuilder,
  type EvidenceIndex,
} from '../../domain/trust/evidence-index';
import type { RunDocumentSource } from '../../ports/run-store';

/**
 * The stored index of a run's evidence list (docs/hashing.md, "The evidence index of a run"): `evidence-index.json`
 * and its buckets, so GET /fedramp/evidence/{sha256} finds an entry of any run by reading one small bucket and the page
 * it names, and never builds an index per request. `hashes` are the list's entries' hex content hashes, in list order
 * (the order of the evidence pages). The index is made when the first bucket is written, from one pass over the
 * hashes, 8 bytes an entry, and dropped with the sources.
 */
export function evidenceIndexSources(hashes: { readonly length: number; hashAt(position: number): string }): RunDocumentSource[] {
  const header = evidenceIndexHeader(hashes.length, LIST_PAGE_SIZE);
  let index: EvidenceIndex | undefined;
  const built = (): EvidenceIndex => {
    if (index === undefined) {
      const builder = new EvidenceIndexBuilder(hashes.length);
      for (let position = 0; position < hashes.length; position++) builder.add(hashes.hashAt(position), position);
      index = builder.build();
    }
    return index;
  };
  const buckets = Array.from({ length: bucketCount(header) }, (_, bucket) => ({
    name: bucketDocumentName(bucket),
    media_type: EVIDENCE_INDEX_BUCKET_TYPE,
    chunks: {
      *[Symbol.iterator]() {
        yield built().bucketBytes(header.bucket_bits, bucket);
      },
    },
  }));
  return [{ name: EVIDENCE_INDEX_DOCUMENT, media_type: 'application/json', chunks: [jsonText(header, 'canonical')] }, ...buckets];
}
