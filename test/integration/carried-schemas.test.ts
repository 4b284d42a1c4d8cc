// The JSON Schemas svc carries (schemas/, docs/schemas.md): the published bytes, as their manifest and the reference
// data's READMEs record them, and the build's check of them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CR26_DOCUMENT_TYPES, CR26_DOCUMENTS } from '../../src/domain/fedramp/cr26-documents';
import { CARRIED_SCHEMAS_DIR } from '../../src/infrastructure/schemas/carried-schemas';
import { REFERENCE, ROOT } from '../support/run-svc';

interface Listed {
  file: string;
  type?: string;
  $schemaVersion?: string;
  $id?: string;
  bytes: number;
  sha256: string;
}
interface Manifest {
  licence: string;
  fedramp: { default: string; generations: { generation: string; source: string; pin: string; files: Listed[] }[] };
  oscal: { releases: { release: string; source: string; pin: string; files: Listed[] }[] };
}

const SCHEMAS = join(ROOT, 'schemas');
const manifest = JSON.parse(readFileSync(join(SCHEMAS, 'manifest.json'), 'utf8')) as Manifest;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Where the reference data keeps each generation: the first in cr26-schemas/, the others by their date. */
const referenceDir = (generation: string) => join(REFERENCE, 'fedramp', generation === '2026-07-15' ? 'cr26-schemas' : `cr26-schemas-${generation}`);
const fedrampFiles = manifest.fedramp.generations.flatMap((g) =>
  g.files.map((f) => ({ ...f, path: join('fedramp', g.generation, f.file), reference: join(referenceDir(g.generation), f.file) })),
);
const oscalFiles = manifest.oscal.releases.flatMap((r) =>
  r.files.map((f) => ({ ...f, path: join('oscal', r.release, f.file), reference: join(REFERENCE, 'oscal', 'schemas', r.release, f.file) })),
);

describe('the schemas svc carries', () => {
  it('are where the built code looks for them, and the package ships them', () => {
    expect(CARRIED_SCHEMAS_DIR).toBe(SCHEMAS);
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files).toContain('schemas');
  });

  it("hold FedRAMP's three generations, every document type in each, and NIST's 1.1.3, 1.2.1 and 1.2.2; the newest generation is the default", () => {
    expect(manifest.fedramp.generations.map((g) => g.generation)).toEqual(['2026-07-15', '2026-09-17', '2026-10-08']);
    expect(manifest.fedramp.default).toBe('2026-10-08');
    for (const g of manifest.fedramp.generations) {
      expect(g.files.map((f) => f.type).sort()).toEqual([...CR26_DOCUMENT_TYPES, 'definitions'].sort());
      for (const f of g.files)
        if (f.type !== 'definitions') expect(f.file).toBe(`fedramp-${CR26_DOCUMENTS[f.type as keyof typeof CR26_DOCUMENTS].stem}-schema-2026-06-24.json`);
    }
    expect(manifest.oscal.releases.map((r) => r.release)).toEqual(['1.1.3', '1.2.1', '1.2.2']);
    expect(manifest.licence).toMatch(/US-government works/);
    for (const set of [...manifest.fedramp.generations, ...manifest.oscal.releases])
      expect([set.source, set.pin]).toEqual([expect.stringMatching(/^https:\/\//), expect.any(String)]);
  });

  it.each([...fedrampFiles, ...oscalFiles].map((f) => [f.path, f] as const))(
    '%s: the sha256, size and $schemaVersion or $id its manifest records; byte for byte the reference copy',
    (_path, f) => {
      const bytes = readFileSync(join(SCHEMAS, f.path));
      const parsed = JSON.parse(bytes.toString('utf8')) as { $schemaVersion?: string; $id?: string };
      expect({
        sha256: sha256(bytes),
        bytes: bytes.length,
        ...(f.$id === undefined ? { $schemaVersion: parsed.$schemaVersion } : { $id: parsed.$id }),
      }).toEqual({
        sha256: f.sha256,
        bytes: f.bytes,
        ...(f.$id === undefined ? { $schemaVersion: f.$schemaVersion } : { $id: f.$id }),
      });
      expect(bytes.equals(readFileSync(f.reference))).toBe(true);
    },
  );

  it("are exactly the reference data's files, none left out, and each generation's $schemaVersion and sha256 its README pins", () => {
    for (const g of manifest.fedramp.generations) {
      expect(g.files.map((f) => f.file)).toEqual(
        readdirSync(referenceDir(g.generation))
          .filter((n) => n.endsWith('.json'))
          .sort(),
      );
      if (g.generation === '2026-07-15') continue; // its README names the commit, not each file's digest
      const readme = readFileSync(join(referenceDir(g.generation), 'README.md'), 'utf8');
      for (const f of g.files) expect(readme).toContain(`| ${f.file} | ${f.$schemaVersion} | ${f.sha256} |`);
    }
    for (const r of manifest.oscal.releases) expect(r.files.map((f) => f.file)).toEqual(readdirSync(join(REFERENCE, 'oscal', 'schemas', r.release)).sort());
    expect(readdirSync(join(SCHEMAS, 'fedramp')).sort()).toEqual(manifest.fedramp.generations.map((g) => g.generation));
    expect(readdirSync(join(SCHEMAS, 'oscal')).sort()).toEqual(manifest.oscal.releases.map((r) => r.release));
  });

  it('the build checks: scripts/check-schemas.js passes on them and fails, naming the file, on a changed byte or an unlisted file', () => {
    const check = (dir?: string) =>
      spawnSync(process.execPath, [join(ROOT, 'scripts', 'check-schemas.js'), ...(dir === undefined ? [] : [dir])], { encoding: 'utf8' });
    expect(check()).toMatchObject({ status: 0, stdout: `schemas/: ${fedrampFiles.length + oscalFiles.length} files match manifest.json\n`, stderr: '' });
    const tmp = mkdtempSync(join(tmpdir(), 'svc-carried-'));
    try {
      cpSync(join(SCHEMAS, 'fedramp'), join(tmp, 'fedramp'), { recursive: true });
      cpSync(join(SCHEMAS, 'manifest.json'), join(tmp, 'manifest.json'));
      const sdr = join(tmp, 'fedramp', '2026-10-08', 'fedramp-security-decision-record-schema-2026-06-24.json');
      writeFileSync(sdr, readFileSync(sdr, 'utf8').replace('"1.1.1"', '"1.1.2"'));
      writeFileSync(join(tmp, 'fedramp', 'extra.json'), '{}');
      const run = check(tmp);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('schemas/fedramp/2026-10-08/fedramp-security-decision-record-schema-2026-06-24.json: sha256 is ');
      expect(run.stderr).toContain(
        'schemas/fedramp/2026-10-08/fedramp-security-decision-record-schema-2026-06-24.json: $schemaVersion is "1.1.2", manifest.json says "1.1.1"',
      );
      expect(run.stderr).toContain('schemas/fedramp/extra.json: not listed in manifest.json');
      expect(run.stderr).toContain('schemas/oscal/1.1.3/oscal_ssp_schema.json: listed in manifest.json but unreadable (ENOENT)');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
