import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { RunAdapter } from '../../src/application/adapters/run-adapter';
import { readNormalizedReport } from '../../src/domain/ksi/ksi-result';
import { VendorScanReader } from '../../src/infrastructure/scans/vendor-scan-reader';
import { oscalAr } from '../../src/infrastructure/scans/vendors/oscal-ar';
import { lulaDocument, NIST_AR, OTHER_MODELS, svcSar } from '../support/oscal-ar-documents';
import { doubles } from '../support/harness';
import { asJson, brokenText, jsonText, mutate, mutations, SEED, typedOutcome } from './bad-input';

/** What the adapter may answer a damaged document with: a typed error of one of these codes, or a report. */
const CODES = ['input-empty', 'wrong-vendor', 'invalid-json', 'invalid-scan', 'not-oscal', 'wrong-oscal-model', 'input-too-large'];

describe('svc adapter run oscal-ar on damaged OSCAL assessment results', () => {
  let dir = '';
  let n = 0;
  const samples: { name: string; text: string }[] = [];
  const d = doubles();
  const adapter = new RunAdapter(new VendorScanReader([oscalAr]), d.writer, d.clock, d.settings, d.hashing);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-oscal-ar-'));
    samples.push(
      { name: 'NIST IFA example', text: readFileSync(NIST_AR, 'utf8') },
      { name: 'svc generate sar', text: await svcSar() },
      { name: 'Lula', text: JSON.stringify(lulaDocument(), null, 2) },
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the adapter on `content`: a normalized report svc itself accepts, or a typed one-line error naming the file. */
  const run = async (content: string | Buffer) => {
    const path = join(dir, `oscal-ar-${n++}.json`);
    writeFileSync(path, content);
    const outcome = await typedOutcome(() => adapter.execute({ vendor: 'oscal-ar', input: path }), path);
    if (outcome.ok) readNormalizedReport(asJson(outcome.value.report), path);
    else expect(CODES).toContain(outcome.error.code);
    return outcome;
  };

  it.each([0, 1, 2])('sample %i mutated gives a valid report or a typed error', async (i) => {
    const document = JSON.parse(samples[i].text);
    await fc.assert(
      fc.asyncProperty(fc.tuple(mutations(3), fc.nat()), async ([changes, style]) => {
        await run(jsonText(mutate(document, changes), style));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it.each([0, 1, 2])('sample %i cut short, with a byte changed, or random text gives a valid report or a typed error', async (i) => {
    await fc.assert(
      fc.asyncProperty(brokenText(samples[i].text.slice(0, 4096)), async (content) => {
        await run(content);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('answers every other OSCAL model, damaged or not, with a typed error naming its root or its damage', async () => {
    const others = Object.entries(OTHER_MODELS).map(([model, file]) => ({
      model,
      document: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
    }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...others), fc.option(mutations(2), { nil: undefined }), async ({ model, document }, changes) => {
        const outcome = await run(JSON.stringify(changes ? mutate(document, changes) : document));
        if (changes === undefined) expect(outcome.ok ? 'read' : outcome.error.message).toContain(`: is an OSCAL ${model}, not a assessment-results; check `);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
