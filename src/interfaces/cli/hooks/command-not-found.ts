import type { Hook } from '@oclif/core';
import { printableText } from '../../../domain/encoding/printable-text';
import { EXIT } from '../../shared/error-mapping';

const GROUPS = ['ir', 'adapter', 'canon', 'cql', 'ksi', 'conmon', 'evidence', 'orchestrator', 'oscal', 'substrate', 'generate'];

/**
 * `Error: No such command <name>`, exit 2; under --json the error object of docs/errors.md on stdout, the hint folded
 * into its message. Names from before 0.5.0 joined the group with a hyphen (`ir-baseline-transform`); for those the
 * hint gives the current form.
 */
const hook: Hook.CommandNotFound = async function (options) {
  // oclif joins every word of the command line up to the first flag into the id; the command is the first word,
  // or the first two when the first is a topic (`ir bogus file.json` → `ir bogus`).
  const words = options.id.split(':');
  const name = printableText((this.config.findTopic(words[0]) && words.length > 1 ? words.slice(0, 2) : words.slice(0, 1)).join(' '));
  const renamed = new RegExp(`^(${GROUPS.join('|')})-(.+)$`).exec(words[0]);
  const current = renamed ? `${renamed[1]} ${renamed[2]}` : undefined;
  const hint =
    current && this.config.findCommand(current.replace(' ', ':'))
      ? `commands were renamed in 0.5.0; use "${this.config.bin} ${printableText(current)}" (group and command separated by a space)`
      : `run "${this.config.bin} --help" for the command groups`;
  const flags = options.argv ?? [];
  const end = flags.indexOf('--');
  if ((end === -1 ? flags : flags.slice(0, end)).includes('--json')) {
    const error = { code: 'usage', exit: EXIT.usage, message: `No such command ${name}; ${hint}` };
    process.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
  } else {
    process.stderr.write(`Error: No such command ${name}\nHint: ${hint}\n`);
  }
  this.exit(EXIT.usage);
};

export default hook;
