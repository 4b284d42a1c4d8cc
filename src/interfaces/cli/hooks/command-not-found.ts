import type { Hook } from '@oclif/core';
import { nearestName } from '../../../domain/encoding/nearest-name';
import { printableText } from '../../../domain/encoding/printable-text';
import { EXIT } from '../../shared/error-mapping';
import { noArgumentsMessage } from '../usage-hints';

const GROUPS = ['ir', 'adapter', 'canon', 'cql', 'ksi', 'conmon', 'evidence', 'orchestrator', 'oscal', 'substrate', 'generate'];

/**
 * `Error: No such command <name>`, exit 2; under --json the error object of docs/errors.md on stdout, the hint folded
 * into its message. Names from before 0.5.0 joined the group with a hyphen (`ir-baseline-transform`); for those the
 * hint gives the current form; for a mistyped name, the nearest command (`did you mean "svc fedramp readiness"?`).
 * oclif also lands here for a command that takes no arguments given some (`fedramp readiness merged.json`): that
 * command says it takes no file, and what it reads.
 */
const hook: Hook.CommandNotFound = async function (options) {
  // oclif joins every word of the command line up to the first flag into the id; the command is the first word,
  // or the first two when the first is a topic (`ir bogus file.json` → `ir bogus`).
  const words = options.id.split(':');
  const flags = options.argv ?? [];
  const end = flags.indexOf('--');
  const json = (end === -1 ? flags : flags.slice(0, end)).includes('--json');
  const refuse = (message: string, hint?: string): void => {
    if (json) {
      const error = { code: 'usage', exit: EXIT.usage, message: printableText(hint === undefined ? message : `${message}; ${hint}`) };
      process.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
    } else {
      process.stderr.write(printableText(`Error: ${message}\n${hint === undefined ? '' : `Hint: ${hint}\n`}`));
    }
    this.exit(EXIT.usage);
  };
  for (let n = words.length - 1; n > 0; n--) {
    const command = this.config.findCommand(words.slice(0, n).join(':'));
    if (command) return refuse(noArgumentsMessage(this.config.bin, command.id, words.slice(n), (command as { reads?: string }).reads));
  }
  const topic = this.config.findTopic(words[0]) !== undefined;
  const name = (topic && words.length > 1 ? words.slice(0, 2) : words.slice(0, 1)).join(' ');
  const renamed = new RegExp(`^(${GROUPS.join('|')})-(.+)$`).exec(words[0]);
  const current = renamed ? `${renamed[1]} ${renamed[2]}` : undefined;
  const near = nearestCommand(this.config, words, topic);
  const hint =
    current && this.config.findCommand(current.replace(' ', ':'))
      ? `commands were renamed in 0.5.0; use "${this.config.bin} ${current}" (group and command separated by a space)`
      : near === undefined
        ? `run "${this.config.bin} --help" for the command groups`
        : `did you mean "${this.config.bin} ${near}"?`;
  return refuse(`No such command ${name}`, hint);
};

/** The command (or, for one mistyped word, the group) nearest the words typed. */
function nearestCommand(config: { commandIDs: string[]; topics: { name: string }[] }, words: readonly string[], topic: boolean): string | undefined {
  const spaced = config.commandIDs.map((id) => id.replaceAll(':', ' '));
  const two =
    words.length > 1
      ? nearestName(
          words.slice(0, 2).join(' '),
          spaced.filter((id) => id.includes(' ')),
        )
      : undefined;
  if (two !== undefined || topic) return two;
  return nearestName(words[0], [...config.topics.map((t) => t.name), ...spaced.filter((id) => !id.includes(' '))]);
}

export default hook;
