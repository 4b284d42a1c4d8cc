import { nearestName } from '../../domain/encoding/nearest-name';

/**
 * What a command that takes no arguments says when given some (`svc fedramp readiness merged.json`): that it takes no
 * file, and what it reads instead (the command's `reads`). oclif folds such words into the command's name and reports
 * "No such command" (hooks/command-not-found.ts), or, after a flag, "Unexpected argument" (BaseCommand.catch).
 */
export function noArgumentsMessage(bin: string, id: string, given: readonly string[], reads: string | undefined): string {
  const command = `${bin} ${id.replaceAll(':', ' ')}`;
  const words = given.map((word) => `"${word}"`).join(', ');
  return `${command} takes no file or other argument (given ${words})${reads === undefined ? '' : `: it reads ${reads}`}; see "${command} --help"`;
}

/**
 * oclif's `Nonexistent flag: --ot` with the nearest flag the command has (`; did you mean --out?`); undefined when no
 * flag is near any of them, and oclif's message stands.
 */
export function unknownFlagMessage(unknown: readonly string[], flags: readonly string[]): string | undefined {
  const near = unknown.flatMap((given) => {
    const name = nearestName(given.replace(/^--?/, '').replace(/=.*$/, ''), flags);
    return name === undefined ? [] : [{ given, name }];
  });
  if (near.length === 0) return undefined;
  const hint = unknown.length === 1 ? `--${near[0].name}` : near.map((n) => `--${n.name} for ${n.given}`).join(', ');
  return `Nonexistent flag${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}; did you mean ${hint}?`;
}
