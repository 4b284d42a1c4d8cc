import type { Hook } from '@oclif/core';
import { EXIT } from '../../shared/error-mapping';

const GROUPS = ['ir', 'adapter', 'canon', 'cql', 'ksi', 'conmon', 'evidence', 'orchestrator', 'oscal', 'substrate', 'generate'];

/**
 * `Error: No such command <name>`, exit 2. Names from before 0.5.0 joined the group with a hyphen
 * (`ir-baseline-transform`); for those the hint gives the current form.
 */
const hook: Hook.CommandNotFound = async function (options) {
  // oclif joins every word of the command line into the id; the command is the first word, or the
  // first two when the first is a topic (`ir bogus file.json` → `ir bogus`).
  const words = options.id.split(':');
  const name = (this.config.findTopic(words[0]) && words.length > 1 ? words.slice(0, 2) : words.slice(0, 1)).join(' ');
  process.stderr.write(`Error: No such command ${name}\n`);
  const renamed = new RegExp(`^(${GROUPS.join('|')})-(.+)$`).exec(words[0]);
  const current = renamed ? `${renamed[1]} ${renamed[2]}` : undefined;
  if (current && this.config.findCommand(current.replace(' ', ':'))) {
    process.stderr.write(`Hint: commands were renamed in 0.5.0; use "${this.config.bin} ${current}" (group and command separated by a space)\n`);
  } else {
    process.stderr.write(`Hint: run "${this.config.bin} --help" for the command groups\n`);
  }
  this.exit(EXIT.usage);
};

export default hook;
