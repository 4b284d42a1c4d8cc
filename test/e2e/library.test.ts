import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, ROOT } from '../support/run-svc';

describe('the library entries of the package (package.json exports)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-library-'));
    // A consumer project with the package installed (as a link, like npm link does).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'compliance-evidence-service'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compliance-evidence-service: the domain rules and the use cases behind createContainer()', () => {
    const script = `
      const svc = require('compliance-evidence-service');
      const fs = require('node:fs');
      const report = svc.readNormalizedReport(JSON.parse(fs.readFileSync(${JSON.stringify(join(FIXTURES, 'sample-baseline.json'))}, 'utf8')), 'sample');
      const container = svc.createContainer({ env: { SVC_HOME: ${JSON.stringify(join(dir, 'home'))} }, cwd: ${JSON.stringify(dir)} });
      const catalog = container.resolve(svc.ListKsis);
      container.resolve(svc.BuildAuditorBundle).execute({ input: ${JSON.stringify(join(FIXTURES, 'sample-baseline.json'))}, outDir: ${JSON.stringify(join(dir, 'bundle'))} }).then((result) => {
        let refused;
        try { svc.readNormalizedReport({ results: [{ ksi_id: 'KSI-IA-02', status: 'MAYBE' }] }, 'bad.json'); } catch (e) { refused = [e instanceof svc.InvalidInputError, e instanceof svc.AppError, e.code]; }
        process.stdout.write(JSON.stringify({ results: report.results.length, counts: result.counts, files: result.files.map((f) => f.name), refused, listKsis: typeof catalog.execute }));
      });
    `;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      results: 5,
      counts: expect.objectContaining({ results: 5, pass: 2, warn: 1, fail: 2 }),
      files: expect.arrayContaining(['evidence-bundle.json', 'manifest.json', 'poam.json']),
      refused: [true, true, 'invalid-report'],
      listKsis: 'function',
    });
    expect(readdirSync(join(dir, 'bundle')).sort()).toEqual([
      'evidence-bundle.json',
      'governance-report.md',
      'lineage.json',
      'manifest.json',
      'poam.json',
      'ssp-narrative.md',
    ]);
  });

  it('ships types for both entries that a TypeScript consumer compiles against (node16 resolution)', () => {
    writeFileSync(
      join(dir, 'consumer.ts'),
      [
        "import { assess, BuildAuditorBundle, createContainer, type KsiResult } from 'compliance-evidence-service';",
        "import { createEnforcementRuntime, EnforcementState, type EPLPolicy } from 'compliance-evidence-service/enforcement';",
        "const result: KsiResult = { ksi_id: 'KSI-IA-02', status: 'FAIL' };",
        "const policy: EPLPolicy = { id: 'p', target: 'KSI-IA-02', condition: { status_in: ['FAIL'] }, action: { name: 'noop' }, mode: 'dry-run', max_attempts: 1, timeout_ms: 1000 };",
        'export const checks = [assess, createContainer().resolve(BuildAuditorBundle), createEnforcementRuntime({ adapters: [] }), EnforcementState.VIOLATED, policy, result];',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          experimentalDecorators: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
