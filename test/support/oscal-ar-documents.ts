import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GenerateSar } from '../../src/application/oscal/generate-sar';
import { OscalRunLoader } from '../../src/application/oscal/oscal-run-loader';
import { RunLoader } from '../../src/application/shared/run-loader';
import { DeterministicUuids } from '../fakes/deterministic-uuids';
import { InMemorySigner } from '../fakes/in-memory-signer';
import { doubles } from './harness';
import { FIXTURES, REFERENCE } from './run-svc';

/** NIST's assessment-results example (usnistgov/oscal-content, the IFA GoodRead story). */
export const NIST_AR = join(REFERENCE, 'oscal', 'examples', 'ar_ifa_assessment-results-example.json');
/** NIST's examples of the other OSCAL models, by root key. */
export const OTHER_MODELS = {
  catalog: join(REFERENCE, 'oscal', 'examples', 'catalog_basic-catalog.json'),
  'system-security-plan': join(REFERENCE, 'oscal', 'examples', 'ssp_ifa_ssp-example.json'),
  'assessment-plan': join(REFERENCE, 'oscal', 'examples', 'ap_ifa_assessment-plan-example.json'),
  'plan-of-action-and-milestones': join(REFERENCE, 'oscal', 'examples', 'poam_ifa_plan-of-action-and-milestones.json'),
  'component-definition': join(REFERENCE, 'oscal', 'examples', 'component-definition_example-component-definition.json'),
};
/** The normalized report `svc generate sar` is run on. */
export const SAMPLE_REPORT = join(FIXTURES, 'sample-baseline.json');

/** The canonical SAR text `svc ir generate-sar` / `svc generate sar` writes for fixtures/sample-baseline.json. */
export async function svcSar(): Promise<string> {
  const d = doubles({ '/sample-baseline.json': JSON.parse(readFileSync(SAMPLE_REPORT, 'utf8')) });
  const runs = new OscalRunLoader(new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings), new DeterministicUuids(), d.settings);
  await new GenerateSar(runs, new InMemorySigner(), d.writer).execute({ input: '/sample-baseline.json', out: '/out/sar.json' });
  return d.writer.files.get('/out/sar.json') as string;
}

const LULA_NS = 'https://docs.lula.dev/oscal/ns';

/** One Lula validation result (as lula's CreateResult and CreateObservation write them): findings by control id, one observation each, no risks. */
function lulaResult(uuid: string, start: string, threshold: boolean, findings: { control: string; state: string; observation: string }[]) {
  return {
    uuid,
    title: 'Lula Validation Result',
    description: 'Assessment results for performing Validations with Lula version v0.4.5',
    start,
    props: [{ ns: LULA_NS, name: 'threshold', value: String(threshold) }],
    'reviewed-controls': {
      description: 'Controls validated',
      'control-selections': [{ description: 'Controls Assessed by Lula', 'include-controls': findings.map((f) => ({ 'control-id': f.control })) }],
    },
    findings: findings.map((f) => ({
      uuid: `f${f.observation.slice(1)}`,
      title: `Validation Result - Component:A9D5204C-7E5B-4C43-BD49-34DF759B9F04 / Control Implementation: A584FEDC-8CEA-4B0C-9F07-85C2C4AE751A / Control:  ${f.control}`,
      description: `This control validates ${f.control}.`,
      target: { type: 'objective-id', 'target-id': f.control, status: { state: f.state } },
      'related-observations': [{ 'observation-uuid': f.observation }],
    })),
    observations: findings.map((f) => ({
      uuid: f.observation,
      description: `[TEST]: ${f.control} - a7377430-2328-4dc4-a9e2-b3f31dc1dff9`,
      methods: ['TEST'],
      collected: start,
      props: [{ ns: LULA_NS, name: 'validation', value: '#a7377430-2328-4dc4-a9e2-b3f31dc1dff9' }],
      'relevant-evidence': [{ description: `Result: ${f.state}\n`, href: 'file:///tmp/lula/resources.json' }],
    })),
  };
}

/**
 * A Lula assessment-results file after two `lula validate` runs: Lula merges each run into the file as a new result,
 * newest first. The June run assessed ac-2 and ID-1 (Lula's demo requirement id); the July run re-assessed ac-2 and
 * added au-2.
 */
export function lulaDocument(): unknown {
  return {
    'assessment-results': {
      uuid: '4f2b8a3c-5d6e-4f70-8a1b-2c3d4e5f6071',
      metadata: {
        title: '[System Name] Security Assessment Results (SAR)',
        'last-modified': '2026-07-01T10:00:00Z',
        version: '0.0.1',
        'oscal-version': '1.1.3',
        remarks: 'Assessment Results generated from Lula',
      },
      results: [
        lulaResult('b1000000-0000-4000-8000-000000000002', '2026-07-01T10:00:00Z', false, [
          { control: 'ac-2', state: 'satisfied', observation: 'c2000000-0000-4000-8000-000000000001' },
          { control: 'au-2', state: 'not-satisfied', observation: 'c2000000-0000-4000-8000-000000000002' },
        ]),
        lulaResult('b1000000-0000-4000-8000-000000000001', '2026-06-01T10:00:00Z', true, [
          { control: 'ac-2', state: 'not-satisfied', observation: 'c1000000-0000-4000-8000-000000000001' },
          { control: 'ID-1', state: 'not-satisfied', observation: 'c1000000-0000-4000-8000-000000000002' },
        ]),
      ],
    },
  };
}
