import type { VendorParser } from '../vendor-parser';
import { inspecTarget, looksLikeInspecJson, looksLikeNonInspecHdf, readInspecJson, type InspecJsonReading } from './inspec-json';

const TOOL = 'Chef InSpec';

const READING: InspecJsonReading = {
  vendor: 'inspec',
  format: TOOL,
  mapping: 'tags.nist of each control (UM-1: none), else cm-6 (data/inspec-controls.json)',
  unreviewed: 'not-applicable',
  producer: (document) => ({ tool: TOOL, ...(typeof document.version === 'string' ? { version: document.version } : {}), tenant: inspecTarget(document) }),
};

/**
 * Chef InSpec's JSON reporter (`inspec exec --reporter json`). HDF is the same format: a document InSpec did not write
 * (a SAF CLI conversion, svc's own) is left to the `hdf` vendor, which names its real producer.
 */
export const inspec: VendorParser = {
  info: {
    vendor: 'inspec',
    tool: TOOL,
    formats: 'InSpec JSON reporter output (inspec exec --reporter json)',
    mapping: READING.mapping,
    evidence: 'Configuration',
    detections: 'configuration',
  },
  looksLike: (head) => looksLikeInspecJson(head) && !looksLikeNonInspecHdf(head),
  parse: (input) => readInspecJson(input, READING),
};
