import { isPlainObject } from '../../../domain/encoding/json-values';
import { CCI_LIST_VERSION, controlsOfCcis } from '../cci-controls';
import { text, type VendorParser } from '../vendor-parser';
import { inspecTarget, looksLikeInspecJson, readInspecJson, type InspecJsonReading, type Producer } from './inspec-json';

/** `platform.name` of the MITRE SAF CLI's conversions (`saf convert <format>2hdf`, heimdall2's hdf-converters). */
const SAF_CONVERTER = 'Heimdall Tools';
/** `platform.name` of `svc generate hdf`. */
const SVC = 'svc';
/** A document that starts with `passthrough` (some SAF converters write it first, before anything else). */
const PASSTHROUGH_FIRST = /^\s*\{\s*"passthrough"\s*:\s*\{/;

const READING: InspecJsonReading = {
  vendor: 'hdf',
  format: 'HDF',
  mapping: `tags.nist of each control (UM-1: none), else tags.cci through DISA's CCI list ${CCI_LIST_VERSION} (data/cci-nist.json), else cm-6 (data/inspec-controls.json)`,
  // Heimdall's "Not Reviewed": an applicable control whose tests were all skipped (a manual check) or never ran.
  unreviewed: 'manual',
  producer,
  cciControls: (ccis) => controlsOfCcis(ccis).controls,
};

/**
 * The Heimdall Data Format as MITRE SAF tools write it: InSpec runs, the SAF CLI's conversions of 25+ scanners, and
 * svc's own `svc generate hdf`. HDF is InSpec's JSON reporter format: it is read as the `inspec` vendor reads it
 * (inspec-json.ts), adding CCIs as a mapping, Heimdall's statuses and the producer the document names.
 */
export const hdf: VendorParser = {
  info: {
    vendor: 'hdf',
    tool: 'Heimdall Data Format (HDF)',
    formats: 'HDF JSON of InSpec runs, of MITRE SAF CLI conversions (saf convert) and of svc generate hdf',
    mapping: READING.mapping,
    evidence: 'Configuration',
    detections: 'configuration',
  },
  looksLike: (head) => looksLikeInspecJson(head) || PASSTHROUGH_FIRST.test(head),
  // A plain InSpec run is HDF too: `auto` reads it as HDF, the format it is published as.
  generalizes: ['inspec'],
  parse: (input) => readInspecJson(input, READING),
};

/**
 * Who wrote an HDF document. A SAF conversion names the scanner as its profile (`Anchore - Grype`, `Gosec scanner`)
 * with the scanner's version, else in `passthrough.auxiliary_data[].name`; its top-level version is the converter's and
 * its target is `platform.target_id`. svc names itself as the platform. Anything else is an InSpec run: `version` is
 * InSpec's, the platform is the target.
 */
function producer(document: Record<string, unknown>, outermost: Record<string, unknown> | undefined): Producer {
  const platform = isPlainObject(document.platform) ? document.platform : {};
  const target = text(platform.target_id);
  const version = text(document.version);
  if (platform.name === SAF_CONVERTER) {
    const scanned = text(outermost?.version);
    return {
      tool: text(outermost?.name) ?? auxiliaryName(document.passthrough) ?? SAF_CONVERTER,
      ...(scanned ? { version: scanned } : {}),
      ...(target ? { tenant: target } : {}),
    };
  }
  if (platform.name === SVC) return { tool: SVC, ...(version ? { version } : {}), ...(target ? { tenant: target } : {}) };
  return { tool: 'Chef InSpec', ...(version ? { version } : {}), tenant: inspecTarget(document) };
}

function auxiliaryName(passthrough: unknown): string | undefined {
  const auxiliary = isPlainObject(passthrough) && Array.isArray(passthrough.auxiliary_data) ? passthrough.auxiliary_data : [];
  return auxiliary.map((a) => (isPlainObject(a) ? text(a.name) : undefined)).find((name) => name !== undefined);
}
