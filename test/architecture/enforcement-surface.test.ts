import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { DESIGN_COMMAND_IDS } from '../support/design-surface';
import { ROOT } from '../support/run-svc';

const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const RULE = 'enforcement-is-library-only';

function violations(cwd: string): string[] {
  const run = spawnSync(DEPCRUISE, ['src', '--config', join(ROOT, '.dependency-cruiser.js'), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`depcruise failed: ${run.stderr}`);
  const found = JSON.parse(run.stdout).summary.violations as Array<{ rule: { name: string }; from: string; to: string }>;
  return found.filter((v) => v.rule.name === RULE).map((v) => `${v.from} -> ${v.to}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** SPEC §9: the enforcement runtime is a library only; the public surface stays DESIGN's commands and routes. */
describe('the enforcement runtime stays off the command line and the API', () => {
  it(`no command or route imports it (dependency-cruiser rule ${RULE})`, () => {
    expect(violations(ROOT)).toEqual([]);
  });

  it('the rule catches a command or a route that reaches it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-enforcement-arch-'));
    try {
      copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      const files: Record<string, string> = {
        'src/domain/enforcement/enforcement-state.ts': "export const EnforcementState = { FAILED: 'FAILED' };\n",
        'src/ports/enforcement-adapter.ts': 'export interface EnforcementAdapter { name: string }\n',
        'src/application/enforcement/enforcement-runtime.ts': 'export class EnforcementRuntime {}\n',
        'src/interfaces/library/enforcement.ts': "export { EnforcementRuntime } from '../../application/enforcement/enforcement-runtime';\n",
        'src/interfaces/cli/commands/ir/enforce.ts':
          "import { EnforcementRuntime } from '../../../../application/enforcement/enforcement-runtime';\nexport default EnforcementRuntime;\n",
        'src/interfaces/http/routes/enforce.ts':
          "import { EnforcementRuntime } from '../../library/enforcement';\nimport { EnforcementState } from '../../../domain/enforcement/enforcement-state';\nimport type { EnforcementAdapter } from '../../../ports/enforcement-adapter';\nexport const route = (a: EnforcementAdapter) => [EnforcementRuntime, EnforcementState, a];\n",
        'package.json': JSON.stringify({ name: 'arch-check' }),
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      expect(violations(dir).sort()).toEqual([
        'src/interfaces/cli/commands/ir/enforce.ts -> src/application/enforcement/enforcement-runtime.ts',
        'src/interfaces/http/routes/enforce.ts -> src/domain/enforcement/enforcement-state.ts',
        'src/interfaces/http/routes/enforce.ts -> src/interfaces/library/enforcement.ts',
        'src/interfaces/http/routes/enforce.ts -> src/ports/enforcement-adapter.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no file of the CLI or the API mentions enforcement', () => {
    const files = ['cli', 'http'].flatMap((entry) => filesUnder(join(ROOT, 'src', 'interfaces', entry)));
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((file) => /enforcement/i.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file))).toEqual([]);
  });

  it("the built manifest lists exactly DESIGN §6's 66 commands, none about enforcement", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> };
    const ids = Object.keys(manifest.commands);
    expect(ids).toHaveLength(66);
    expect([...ids].sort()).toEqual([...DESIGN_COMMAND_IDS].sort());
    expect(ids.filter((id) => /enforc/i.test(id))).toEqual([]);
  });
});
