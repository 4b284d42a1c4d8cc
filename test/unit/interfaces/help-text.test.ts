import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helpText } from '../../../src/interfaces/cli/help-text';
import VulnList from '../../../src/interfaces/cli/commands/vuln/list';

const COMMANDS = join(__dirname, '..', '..', '..', 'src', 'interfaces', 'cli', 'commands');

/** helpText(__filename): a command's long description, read from the Markdown file beside it (docs/cli.md). */
describe('helpText', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-help-text-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads <command>.md beside the .ts (ts-jest) or the .js (dist/), exactly, but for the one final line end', () => {
    const text = '  Lines, `<%= config.bin %>` and $HOME kept as they are: \\n, ${x}  \n\nExit codes: 0 done.  ';
    writeFileSync(join(dir, 'cmd.md'), `${text}\n`);
    expect(helpText(join(dir, 'cmd.ts'))).toBe(text);
    expect(helpText(join(dir, 'cmd.js'))).toBe(text);
    writeFileSync(join(dir, 'cmd.md'), `${text}\n\n`);
    expect(helpText(join(dir, 'cmd.ts'))).toBe(`${text}\n`);
    writeFileSync(join(dir, 'cmd.md'), text);
    expect(helpText(join(dir, 'cmd.ts'))).toBe(text);
    writeFileSync(join(dir, 'cmd.md'), 'a\r\n');
    expect(helpText(join(dir, 'cmd.ts'))).toBe('a\r');
  });

  it('throws at load naming the missing file', () => {
    const missing = join(dir, 'gone.md');
    expect(() => helpText(join(dir, 'gone.ts'))).toThrow(
      `help text ${missing} cannot be read (ENOENT): a command's long description is the Markdown file beside it, which npm run build copies to dist/`,
    );
  });

  it('gives a command loaded from src/ its Markdown file', () => {
    const md = readFileSync(join(COMMANDS, 'vuln', 'list.md'), 'utf8');
    expect(VulnList.description).toBe(md.slice(0, -1));
    expect(VulnList.description).toMatch(/^Groups are a run's detections .*\nExit codes: 0 listed;.*cannot be read\.$/s);
  });

  it('every Markdown file under commands/ is read by the command beside it, and every such command has its file', () => {
    const files = readdirSync(COMMANDS, { recursive: true, encoding: 'utf8' });
    const md = files.filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -'.md'.length));
    const reading = files
      .filter((f) => f.endsWith('.ts') && readFileSync(join(COMMANDS, f), 'utf8').includes('static description = helpText(__filename);'))
      .map((f) => f.slice(0, -'.ts'.length));
    expect(md.sort()).toEqual(reading.sort());
    expect(md.length).toBeGreaterThanOrEqual(13);
  });
});
