import { readFileSync } from 'node:fs';

/**
 * A command's long help text, kept in a Markdown file beside it: `static description = helpText(__filename)` reads
 * `<the command's path without .ts or .js>.md`, as oclif/plugin-plugins and salesforcecli keep theirs in messages/*.md.
 * Read once, synchronously, when the command's module loads (oclif manifest records it at build time); the text is
 * the file's, but for the one line end the file ends with. `npm run build` copies the files to dist/
 * (scripts/copy-help-text.js). A missing file throws at load, naming it.
 */
export function helpText(commandFile: string): string {
  const file = commandFile.replace(/\.(?:ts|js)$/, '') + '.md';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new Error(
      `help text ${file} cannot be read (${why}): a command's long description is the Markdown file beside it, which npm run build copies to dist/`,
    );
  }
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
