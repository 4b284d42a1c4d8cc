import { writeFileSync } from 'node:fs';
import { VENDOR_PARSERS } from '../../../src/infrastructure/scans/registry';
import { VendorScanReader } from '../../../src/infrastructure/scans/vendor-scan-reader';
import { rawSample, scratchFolder } from '../../support/adapters';

const reader = new VendorScanReader(VENDOR_PARSERS);
const { path } = scratchFolder('svc-auto-');

/** Which parser claims each real file is format-detection.test.ts's; this is what `auto` does with the answer. */
describe("svc adapter run auto: the vendor from the file's content (DESIGN §13)", () => {
  it('gives the one vendor whose format the file has', async () => {
    expect((await reader.detect(rawSample('trivy', 'misconfigurations_and_secrets.json'))).vendor).toBe('trivy');
    expect((await reader.detect(rawSample('nessus', 'sample-basic-network-scan-2hosts.nessus'))).vendor).toBe('nessus');
  });

  it('a file no format matches names every vendor and the fix', async () => {
    const other = path('other.json');
    writeFileSync(other, '{"hello": "world"}');
    await expect(reader.detect(other)).rejects.toMatchObject({
      code: 'vendor-not-detected',
      message: `${other}: looks like the output of none of the ${VENDOR_PARSERS.length} scanners svc reads (${VENDOR_PARSERS.map((p) => p.info.vendor).join(', ')}); name the vendor (svc adapter run <vendor> ${other}), or check that this is the scanner's JSON or XML output file`,
    });
  });

  it('a file two formats match names both and the command for each', async () => {
    const both = new VendorScanReader([
      { ...VENDOR_PARSERS[0], info: { ...VENDOR_PARSERS[0].info, vendor: 'one', tool: 'One' }, looksLike: () => true },
      { ...VENDOR_PARSERS[1], info: { ...VENDOR_PARSERS[1].info, vendor: 'two', tool: 'Two' }, looksLike: () => true },
    ]);
    const file = path('any.json');
    writeFileSync(file, '{}');
    await expect(both.detect(file)).rejects.toMatchObject({
      code: 'vendor-ambiguous',
      message: `${file}: looks like the output of One (one) and of Two (two); name the one it is: svc adapter run one ${file} or svc adapter run two ${file}`,
    });
  });

  it('an empty file is input-empty', async () => {
    const empty = path('empty.json');
    writeFileSync(empty, '');
    await expect(reader.detect(empty)).rejects.toMatchObject({ code: 'input-empty' });
  });
});
