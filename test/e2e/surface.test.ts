import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { buildApi } from '../../src/interfaces/http/server';
import { capturingLogger, proxyConfig } from '../support/api';
import { DESIGN_COMMAND_IDS, DESIGN_COMMANDS, DESIGN_ROUTES, openApiRoutes } from '../support/design-surface';
import { BIN, ROOT } from '../support/run-svc';

interface ManifestCommand {
  id: string;
  summary?: string;
  examples?: string[];
  flags: Record<string, unknown>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { version: string; commands: Record<string, ManifestCommand> };
const topics = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).oclif.topics as Record<string, { description: string }>;
const TOPICS = Object.keys(DESIGN_COMMANDS);

/** Help text with every run of whitespace made one space, so oclif's wrapping at the terminal width does not matter. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

/** An example as `--help` prints it: `<%= config.bin %>` is svc, `<%= command.id %>` the id with the topic separator. */
const rendered = (example: string, id: string): string => example.replaceAll('<%= config.bin %>', 'svc').replaceAll('<%= command.id %>', id.replace(':', ' '));

interface HelpText {
  stdout: string;
  stderr: string;
  status: number;
}

/** `node bin/run.js <args>` for every argument list, four at a time (two cores: the whole set takes a few seconds). */
async function helpTexts(argLists: string[][]): Promise<Map<string, HelpText>> {
  const run = promisify(execFile);
  const texts = new Map<string, HelpText>();
  const queue = [...argLists];
  const worker = async (): Promise<void> => {
    for (let args = queue.shift(); args; args = queue.shift()) {
      const text = await run(process.execPath, [BIN, ...args], { cwd: ROOT }).then(
        ({ stdout, stderr }) => ({ stdout, stderr, status: 0 }),
        (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, status: error.code }),
      );
      texts.set(args.join(' '), text);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return texts;
}

describe('the command surface (DESIGN §6)', () => {
  it('holds exactly the 66 commands of DESIGN §6 in oclif.manifest.json, with only oclif help besides', () => {
    const ids = Object.keys(manifest.commands).filter((id) => id !== 'help');
    expect(DESIGN_COMMAND_IDS).toHaveLength(66);
    expect({ missing: DESIGN_COMMAND_IDS.filter((id) => !ids.includes(id)), extra: ids.filter((id) => !DESIGN_COMMAND_IDS.includes(id)) }).toEqual({
      missing: [],
      extra: [],
    });
    expect(ids).toHaveLength(66);
    expect(manifest.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('describes exactly the 14 groups of DESIGN §6 built so far as oclif topics', () => {
    expect(Object.keys(topics).sort()).toEqual([...TOPICS].sort());
    expect(TOPICS).toHaveLength(14);
  });

  it('gives every command a one-line summary and at least one example that names only its own flags', () => {
    for (const id of DESIGN_COMMAND_IDS) {
      const command = manifest.commands[id];
      expect({ id, summary: command.summary }).toEqual({ id, summary: expect.stringMatching(/^[^\n]{10,200}$/) });
      expect({ id, hasExamples: (command.examples ?? []).length > 0 }).toEqual({ id, hasExamples: true });
      for (const example of command.examples ?? []) {
        expect({ id, example }).toEqual({ id, example: expect.stringContaining('<%= config.bin %> <%= command.id %>') });
        // The flags of the svc command itself: up to the first pipe, redirection or `&&`.
        const own = example.split('<%= command.id %>')[1].split(/ \| | > | && /)[0];
        const unknown = (own.match(/(?<=\s)--[a-z][a-z-]*/g) ?? []).map((f) => f.slice(2)).filter((f) => !(f in command.flags));
        expect({ id, example, unknown }).toEqual({ id, example, unknown: [] });
      }
    }
  });
});

describe('--help of the CLI, each group and each command', () => {
  let texts: Map<string, HelpText>;
  beforeAll(async () => {
    texts = await helpTexts([['--help'], ...TOPICS.map((t) => [t, '--help']), ...DESIGN_COMMAND_IDS.map((id) => [...id.split(':'), '--help'])]);
  }, 60_000);

  it('svc --help lists the 14 groups with their descriptions', () => {
    const { stdout, stderr, status } = texts.get('--help')!;
    expect({ stderr, status }).toEqual({ stderr: '', status: 0 });
    const listed = stdout.split('\nTOPICS\n')[1];
    for (const topic of TOPICS) expect(flat(listed)).toContain(flat(` ${topic} ${topics[topic].description}`));
  });

  it.each(TOPICS)('svc %s --help lists every command of the group with its summary, and nothing else', (topic) => {
    const { stdout, stderr, status } = texts.get(`${topic} --help`)!;
    expect({ stderr, status }).toEqual({ stderr: '', status: 0 });
    expect(stdout.startsWith(`${topics[topic].description}\n\nUSAGE\n  $ svc ${topic} COMMAND\n\nCOMMANDS\n`)).toBe(true);
    const section = stdout.split('\nCOMMANDS\n')[1];
    const listed = [...section.matchAll(new RegExp(`^ {2}${topic} (\\S+)`, 'gm'))].map((m) => m[1]);
    expect(listed.sort()).toEqual([...DESIGN_COMMANDS[topic]].sort());
    for (const command of DESIGN_COMMANDS[topic])
      expect(flat(section)).toContain(flat(` ${topic} ${command} ${manifest.commands[`${topic}:${command}`].summary} `));
  });

  it.each(DESIGN_COMMAND_IDS.map((id) => [id.replace(':', ' '), id]))('svc %s --help prints its summary, usage and every example', (name, id) => {
    const { stdout, stderr, status } = texts.get(`${name} --help`)!;
    expect({ stderr, status }).toEqual({ stderr: '', status: 0 });
    const command = manifest.commands[id];
    expect(stdout.startsWith(`${command.summary}\n`)).toBe(true);
    expect(stdout).toContain(`\nUSAGE\n  $ svc ${name}`);
    const examples = stdout.split('\nEXAMPLES\n')[1] ?? '';
    expect(examples).not.toBe('');
    for (const example of command.examples!) expect(flat(examples)).toContain(flat(rendered(example, id)));
  });
});

describe('the documentation of the surface', () => {
  it("README's Command groups table links each group, with exactly its commands, to a docs page naming every one", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.split('\n### Command groups\n')[1].split('\n\n')[0].trim();
    const lines = table.split('\n').slice(2);
    const rows = lines.map((row) => /^\| `([a-z]+)` \| ([a-z, -]+) \| \[(docs\/[a-z]+\.md)\]\(\3\) \|$/.exec(row));
    expect(lines.filter((_, i) => !rows[i])).toEqual([]);
    expect(rows.map((r) => r![1]).sort()).toEqual([...TOPICS].sort());
    for (const [, topic, commands, page] of rows as RegExpExecArray[]) {
      expect({ topic, commands: commands.split(', ') }).toEqual({ topic, commands: DESIGN_COMMANDS[topic] });
      const text = readFileSync(join(ROOT, page), 'utf8');
      expect({ page, missing: DESIGN_COMMANDS[topic].filter((c) => !new RegExp(`svc ${topic} ${c}(?![\\w-])`).test(text)) }).toEqual({ page, missing: [] });
    }
  });
});

describe('the HTTP surface (DESIGN §9)', () => {
  it('the OpenAPI document holds exactly the 30 routes (SPEC’s 17 and the trust center’s 13)', () => {
    const { openapi } = buildApi(proxyConfig(), { logger: capturingLogger().logger });
    const routes = openApiRoutes(openapi);
    expect(DESIGN_ROUTES).toHaveLength(30);
    expect({ missing: DESIGN_ROUTES.filter((r) => !routes.includes(r)), extra: routes.filter((r) => !DESIGN_ROUTES.includes(r)) }).toEqual({
      missing: [],
      extra: [],
    });
    expect(routes).toHaveLength(30);
  });
});

/** Where a text cites DESIGN (DESIGN.md, a file users do not have): the places, each with the words around it. */
function designCitations(text: string, where: string): string[] {
  return [...text.matchAll(/DESIGN/g)].map((m) => `${where}: …${text.slice(Math.max(0, m.index - 40), m.index + 20)}…`);
}

describe('user-facing text cites docs/, never DESIGN', () => {
  it('in the help of every command and group (oclif.manifest.json, the topics) and of svc-api', () => {
    const apiHelp = spawnSync(process.execPath, [join(ROOT, 'bin', 'svc-api.js'), '--help'], { encoding: 'utf8' });
    expect(apiHelp.stdout).toContain('docs/api.md');
    expect([
      ...designCitations(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'), 'oclif.manifest.json'),
      ...designCitations(JSON.stringify(topics), 'package.json oclif.topics'),
      ...designCitations(apiHelp.stdout, 'svc-api --help'),
    ]).toEqual([]);
  });

  it('in the OpenAPI document', () => {
    const { openapi } = buildApi(proxyConfig(), { logger: capturingLogger().logger });
    expect(designCitations(JSON.stringify(openapi), 'openapi.json')).toEqual([]);
  });

  it('in every string of src/ (messages, descriptions, generated documents); comments may cite it', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const found = files.flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(join(ROOT, 'src', file), 'utf8'), ts.ScriptTarget.Latest, true);
      const texts: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) texts.push(...designCitations(node.text, `src/${file}`));
        ts.forEachChild(node, visit);
      };
      visit(source);
      return texts;
    });
    // data, and the commands' long help texts (src/interfaces/cli/help-text.ts)
    const data = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json') || f.endsWith('.md'));
    for (const file of data) found.push(...designCitations(readFileSync(join(ROOT, 'src', file), 'utf8'), `src/${file}`));
    expect(files.length).toBeGreaterThan(500);
    expect(found).toEqual([]);
  });
});
