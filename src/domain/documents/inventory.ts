import { formatDigest } from '../evidence/content-digest';
import type { Snapshot } from '../substrate/snapshot';

/**
 * The columns of the FedRAMP Integrated Inventory Workbook (IIW) template, in its order and with its header
 * texts: ISSOs paste rows into that template, so they are the template's, not ours.
 */
export const INVENTORY_COLUMNS = [
  'UNIQUE ASSET IDENTIFIER',
  'IPv4 or IPv6 Address',
  'Virtual',
  'Public',
  'DNS Name or URL',
  'NetBIOS Name',
  'MAC Address',
  'Authenticated Scan',
  'Baseline Configuration Name',
  'OS Name and Version',
  'Location',
  'Asset Type',
  'Hardware Make/Model',
  'In Latest Scan',
  'Software/Database Vendor',
  'Software/Database Name & Version',
  'Patch Level',
  'Diagram Label',
  'Comments',
  'Serial #/Asset Tag#',
  'VLAN/Network ID',
  'System Administrator/Owner',
  'Application Administrator/Owner',
  'Function',
  'End-of-Life',
] as const;
export type InventoryColumn = (typeof INVENTORY_COLUMNS)[number];

/** One asset: the cells a snapshot can fill; the other columns stay blank for the ISSO. */
export type InventoryRow = Partial<Record<InventoryColumn, string>>;

export interface InventoryModel {
  /** The walked directory's name. */
  root: string;
  /** `sha256:<hex>` Merkle root of the snapshot's files. */
  merkleRoot: string;
  /** YYYY-MM-DD the workbook speaks for. */
  date: string;
  tool: { name: string; version: string };
  counts: { files: number; resources: number };
  /** One row per resource, in the snapshot's (id) order. */
  rows: InventoryRow[];
}

/**
 * The IIW of a substrate snapshot: a resource is an asset. Its id is the unique identifier, its kind the asset type,
 * its file (under the walked root) the location and the baseline configuration it is declared in, its category the
 * function, and the SHA-256 of its canonical content goes in Comments so the row can be checked against the tree.
 */
export function buildInventory(snapshot: Snapshot, info: Pick<InventoryModel, 'date' | 'tool'>): InventoryModel {
  return {
    root: snapshot.root,
    merkleRoot: formatDigest(snapshot.merkle_root),
    ...info,
    counts: { files: snapshot.counts.files, resources: snapshot.counts.resources },
    rows: snapshot.resources.map((r) => ({
      'UNIQUE ASSET IDENTIFIER': r.id,
      'Baseline Configuration Name': r.file,
      Location: `${snapshot.root}/${r.file}`,
      'Asset Type': r.kind,
      Comments: `Resource content ${formatDigest(r.sha256)}`,
      Function: r.category,
    })),
  };
}
