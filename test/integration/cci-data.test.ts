import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CCI_LIST_VERSION, controlsOfCcis } from '../../src/infrastructure/scans/cci-controls';
import data from '../../src/infrastructure/scans/data/cci-nist.json';
import { REFERENCE } from '../support/run-svc';

const LIST = join(REFERENCE, 'disa', 'U_CCI_List.2023-06-07.xml');
const SCRIPT = join(__dirname, '..', '..', 'scripts', 'build-cci.js');

/** The ids of a table's lists (`{control: "CCI-… CCI-…"}` or one such list), each once. */
const idsOf = (lists: string | Record<string, string>) => new Set((typeof lists === 'string' ? [lists] : Object.values(lists)).flatMap((l) => l.split(' ')));

describe("the checked-in CCI table (src/infrastructure/scans/data/cci-nist.json) against DISA's CCI list", () => {
  const xml = readFileSync(LIST, 'utf8');
  // Read here without the script's parser: each cci_item's id and the titles of its references.
  const items = [...xml.matchAll(/<cci_item id="(CCI-\d{6})">([\s\S]*?)<\/cci_item>/g)].map(([, id, body]) => ({
    id,
    rev5: body.includes('title="NIST SP 800-53 Revision 5"'),
    rev4: body.includes('title="NIST SP 800-53 Revision 4"'),
  }));

  it('is what scripts/build-cci.js derives from the list now (its --check passes)', () => {
    expect(() => execFileSync(process.execPath, [SCRIPT, REFERENCE, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('counts 5,098 CCIs: 3,814 with a Revision 5 reference, 733 more with a Revision 4 one, 551 with neither', () => {
    expect(items).toHaveLength(5098);
    expect(items.filter((i) => i.rev5)).toHaveLength(3814);
    expect(items.filter((i) => !i.rev5 && i.rev4)).toHaveLength(733);
    expect(items.filter((i) => !i.rev5 && !i.rev4)).toHaveLength(551);
    expect(data.counts).toEqual({ ccis: 5098, rev5: 3814, rev4: 733, unmapped: 551 });
  });

  it('lists each CCI under the revision it maps by, and none twice', () => {
    const rev5 = idsOf(data.rev5);
    const rev4 = idsOf(data.rev4);
    const unmapped = idsOf(data.unmapped);
    expect([...rev5].sort()).toEqual(items.filter((i) => i.rev5).map((i) => i.id));
    expect([...rev4].sort()).toEqual(items.filter((i) => !i.rev5 && i.rev4).map((i) => i.id));
    expect([...unmapped].sort()).toEqual(items.filter((i) => !i.rev5 && !i.rev4).map((i) => i.id));
  });

  it('names its source: the list file, its version and publication date, and its sha256', () => {
    expect(data.source).toEqual({
      file: 'U_CCI_List.2023-06-07.xml',
      version: '2023-06-07',
      publishdate: '2023-06-07',
      sha256: createHash('sha256').update(readFileSync(LIST)).digest('hex'),
    });
    expect(CCI_LIST_VERSION).toBe('2023-06-07');
  });

  it('writes controls in svc form: statement parts dropped, enhancements kept, keys in catalog order', () => {
    const keys = [...Object.keys(data.rev5), ...Object.keys(data.rev4)];
    expect(keys.every((k) => /^[a-z]{2}-\d{1,2}(\.\d{1,2})?$/.test(k))).toBe(true);
    expect(Object.keys(data.rev5).slice(0, 4)).toEqual(['ac-1', 'ac-2', 'ac-2.1', 'ac-2.2']);
  });
});

describe('controlsOfCcis: CCI ids to NIST SP 800-53 controls', () => {
  it('takes the Revision 5 reference of a CCI that has one (CCI-000366: CM-6 b; CCI-001744: CM-3 (5))', () => {
    expect(controlsOfCcis(['CCI-000366', 'CCI-001744'])).toEqual({ controls: ['cm-6', 'cm-3.5'], rev4: [], unmapped: [], unknown: [] });
  });

  it('takes every control of a reference naming several (CCI-002523, Rev. 5 "SC-37, SC-37 (1)")', () => {
    expect(controlsOfCcis(['CCI-002523']).controls).toEqual(['sc-37', 'sc-37.1']);
  });

  it('falls back to the Revision 4 reference, and says so (CCI-000192: IA-5 (1) (a))', () => {
    expect(controlsOfCcis(['CCI-000192'])).toEqual({ controls: ['ia-5.1'], rev4: ['CCI-000192'], unmapped: [], unknown: [] });
  });

  it('takes only the Revision 5 reference of a CCI that has both (CCI-001586: Rev. 4 CM-3 (4) and CM-3 g, Rev. 5 CM-3 g)', () => {
    expect(controlsOfCcis(['CCI-001586'])).toEqual({ controls: ['cm-3'], rev4: [], unmapped: [], unknown: [] });
  });

  it('lists a CCI with neither reference as unmapped, and one the list does not have as unknown, never dropping either', () => {
    expect(controlsOfCcis(['CCI-001263', 'CCI-999999', 'CCI-000366', 'CCI-000366'])).toEqual({
      controls: ['cm-6'],
      rev4: [],
      unmapped: ['CCI-001263'],
      unknown: ['CCI-999999'],
    });
    expect(controlsOfCcis(['constructor', '__proto__', ''])).toEqual({ controls: [], rev4: [], unmapped: [], unknown: ['constructor', '__proto__', ''] });
  });
});
