import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../support/run-svc';

const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string, paths = ['src']): Violation[] {
  const run = spawnSync(DEPCRUISE, [...paths, '--config', join(ROOT, '.dependency-cruiser.js'), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`depcruise failed: ${run.stderr}`);
  return (JSON.parse(run.stdout).summary.violations as Violation[]).map(({ rule, from, to }) => ({ rule: { name: rule.name }, from, to }));
}

describe('the dependency rule of DESIGN §2 (dependency-cruiser)', () => {
  it('holds for the project', () => {
    expect(cruise(ROOT)).toEqual([]);
  });

  it('holds for the test doubles: none imports an adapter or a driving adapter', () => {
    expect(cruise(ROOT, ['src', 'test/fakes'])).toEqual([]);
  });

  describe('catches each way of breaking it', () => {
    let dir: string;
    let violations: Violation[];
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'svc-arch-'));
      copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      const files: Record<string, string> = {
        'src/domain/rule.ts':
          "import { readFileSync } from 'node:fs';\nimport { FsThing } from '../infrastructure/fs-thing';\nexport const rule = () => [readFileSync, FsThing];\n",
        'src/domain/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'src/domain/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
        'src/ports/store.ts': "import { FsThing } from '../infrastructure/fs-thing';\nexport type Store = typeof FsThing;\n",
        'src/infrastructure/fs-thing.ts': "import { useCase } from '../application/use-case';\nexport const FsThing = useCase;\n",
        'src/application/use-case.ts': "import { FsThing } from '../infrastructure/fs-thing';\nexport const useCase = () => FsThing;\n",
        'src/interfaces/cli/commands/ir/thing.ts':
          "import { writeFileSync } from 'node:fs';\nimport { FsThing } from '../../../../infrastructure/fs-thing';\nimport { fake } from '../../../../../test/fake';\nexport default [writeFileSync, FsThing, fake];\n",
        'src/interfaces/cli/container.ts': "import { FsThing } from '../../infrastructure/fs-thing';\nexport const root = FsThing;\n",
        'test/fake.ts': 'export const fake = 1;\n',
        'test/fakes/in-memory-thing.ts': "import { FsThing } from '../../src/infrastructure/fs-thing';\nexport const InMemoryThing = FsThing;\n",
        'src/infrastructure/serve.ts': "import express from 'express';\nexport const serve = express;\n",
        'src/interfaces/http/app.ts': "import express from 'express';\nexport const app = express;\n",
        'package.json': JSON.stringify({ name: 'arch-check', peerDependencies: { express: '^5' }, peerDependenciesMeta: { express: { optional: true } } }),
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      violations = cruise(dir, ['src', 'test/fakes']);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const broken = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

    it('domain importing Node or an adapter', () => {
      expect(broken('domain-is-pure')).toEqual(['src/domain/rule.ts -> fs', 'src/domain/rule.ts -> src/infrastructure/fs-thing.ts']);
    });

    it('a port importing an adapter', () => expect(broken('ports-are-interfaces')).toEqual(['src/ports/store.ts -> src/infrastructure/fs-thing.ts']));

    it('a use case importing an adapter', () =>
      expect(broken('application-uses-ports')).toEqual(['src/application/use-case.ts -> src/infrastructure/fs-thing.ts']));

    it('an adapter calling a use case', () =>
      expect(broken('infrastructure-implements-ports')).toEqual(['src/infrastructure/fs-thing.ts -> src/application/use-case.ts']));

    it('a command importing an adapter (the composition root may)', () => {
      expect(broken('only-composition-roots-reach-adapters')).toEqual(['src/interfaces/cli/commands/ir/thing.ts -> src/infrastructure/fs-thing.ts']);
    });

    it('a command doing its own I/O', () => expect(broken('commands-stay-thin')).toEqual(['src/interfaces/cli/commands/ir/thing.ts -> fs']));

    it('a cycle', () => expect(broken('no-circular')).toEqual(expect.arrayContaining(['src/domain/a.ts -> src/domain/b.ts'])));

    it('the api extra outside svc-api and the Graph adapters', () =>
      expect(broken('api-extra-stays-in-the-api')).toEqual([expect.stringMatching(/^src\/infrastructure\/serve\.ts -> .*node_modules\/express\/index\.js$/)]));

    it('a test double built from the adapter it stands in for', () =>
      expect(broken('doubles-are-independent')).toEqual(['test/fakes/in-memory-thing.ts -> src/infrastructure/fs-thing.ts']));

    it('shipped code importing tests', () => expect(broken('not-to-test')).toEqual(['src/interfaces/cli/commands/ir/thing.ts -> test/fake.ts']));
  });
});

describe('commands load decorator metadata first', () => {
  it('every command imports the base command before anything else', () => {
    const run = spawnSync('grep', ['-rL', '--include=*.ts', '^import { BaseCommand }', join(ROOT, 'src/interfaces/cli/commands')], { encoding: 'utf8' });
    expect(run.stdout).toBe('');
    const first = spawnSync('sh', ['-c', `for f in $(find ${join(ROOT, 'src/interfaces/cli/commands')} -name '*.ts'); do head -1 "$f"; done | sort -u`], {
      encoding: 'utf8',
    });
    expect(first.stdout).toBe("import { BaseCommand } from '../../base-command';\n");
  });
});
