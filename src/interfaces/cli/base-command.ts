// Decorator metadata must exist before any use case (and tsyringe) loads: every command imports this file first.
import 'reflect-metadata';
import { Command, Errors, Flags, ux } from '@oclif/core';
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { printableText, terminalJson, terminalText } from '../../domain/encoding/printable-text';
import { AppError } from '../../domain/errors';
import { EXIT, exitCodeFor } from '../shared/error-mapping';
import { buildCliContainer, type ContainerOverrides } from './container';
import { noArgumentsMessage, unknownFlagMessage } from './usage-hints';

/**
 * Every svc command: builds the container, and turns errors into `Error: <message>` on stderr with the
 * exit code of DESIGN §8 (under --json, an error object on stdout). Stack traces only with --verbose.
 */
export abstract class BaseCommand extends Command {
  static baseFlags = {
    verbose: Flags.boolean({ summary: 'Print stack traces of unexpected errors.', helpGroup: 'GLOBAL' }),
  };

  /**
   * What a command that takes no arguments reads instead (`the run store's latest run and ...`), said when it is given
   * some (usage-hints.ts). oclif keeps it in the manifest, where the command-not-found hook finds it.
   */
  static reads?: string;

  /** Test seam: applied after the production adapters (reset it in afterEach). */
  static overrides?: ContainerOverrides;

  private container?: DependencyContainer;

  protected resolve<T>(token: InjectionToken<T>): T {
    this.container ??= buildCliContainer(BaseCommand.overrides);
    return this.container.resolve(token);
  }

  /**
   * Everything a command prints goes through here: scanner, catalog and file text reaches the output, so control
   * characters a terminal would act on (ESC sequences, C1 controls such as U+009B, a lone CR, U+2028) are written out
   * as `\u001b` and the like (terminalText); tab, line feed and CRLF stay.
   */
  override log(message = '', ...args: unknown[]): void {
    super.log(typeof message === 'string' ? terminalText(message) : message, ...args);
  }

  override logToStderr(message = '', ...args: unknown[]): void {
    super.logToStderr(typeof message === 'string' ? terminalText(message) : message, ...args);
  }

  /** --json output: the characters JSON.stringify leaves raw that a terminal would act on, as `\u` escapes (the same JSON). */
  override logJson(json: unknown): void {
    ux.stdout(terminalJson(ux.colorizeJson(json, { pretty: true, theme: this.config.theme?.json })));
  }

  /** Text for stdout written as it is (a CSV or calendar printed whole, without a line feed added), controls written out. */
  protected write(text: string): void {
    process.stdout.write(terminalText(text));
  }

  /** One `Note: <message>` line on stderr: what svc decided for the user, beside the command's output. */
  protected note(message: string): void {
    process.stderr.write(`Note: ${printableText(message)}\n`);
  }

  /** One `Warning: <message>` line on stderr (oclif's warn() wraps and decorates it). */
  protected warning(message: string): void {
    process.stderr.write(`Warning: ${printableText(message)}\n`);
  }

  /** A check that ran and found problems exits 1 (DESIGN §8), under --json too. */
  protected exitWithFindings(found: boolean): void {
    if (found) process.exitCode = EXIT.findings;
  }

  /** Writes a block of text (Markdown, DOT, ...) to stdout unless --json is on. */
  protected print(text: string): void {
    this.log(text.endsWith('\n') ? text.slice(0, -1) : text);
  }

  override async catch(refused: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    const error = this.explained(refused);
    const exit = error instanceof AppError ? exitCodeFor(error) : error instanceof Errors.CLIError ? (error.oclif?.exit ?? EXIT.usage) : EXIT.internal;
    process.exitCode = exit;
    // Messages quote file contents and command-line words: control bytes in them are written out, never sent to the terminal.
    const message = printableText(
      exit === EXIT.internal ? `internal error: ${error.message}; rerun with --verbose for the stack trace and report it` : error.message,
    );
    if (this.jsonEnabled()) {
      this.logJson({ error: { code: error instanceof AppError ? error.code : exit === EXIT.usage ? 'usage' : 'internal', exit, message } });
      // A flag or argument oclif refused was reported just now; under NODE_ENV=development or test oclif would add a
      // warning that run() "did not parse its arguments" to stderr.
      this.parsed = true;
      return undefined;
    }
    process.stderr.write(`Error: ${message}\n`);
    if (this.argv.includes('--verbose')) {
      for (let e: unknown = error; e instanceof Error; e = e.cause)
        process.stderr.write(printableText(`${e === error ? '' : 'Caused by: '}${e.stack ?? e.message}\n`));
    }
    throw new Errors.ExitError(exit);
  }

  /**
   * oclif's refusal of a flag the command does not have, with the nearest one it has; of arguments given to a command
   * that takes none, with what it reads instead (usage-hints.ts). Any other error as it is.
   */
  private explained<E extends Error>(error: E): E | Errors.CLIError {
    if (!(error instanceof Errors.CLIError) || !('parse' in error)) return error;
    const { flags, args } = error as { flags?: unknown; args?: unknown };
    const ctor = this.ctor as typeof BaseCommand;
    const words = (list: unknown): list is string[] => Array.isArray(list) && list.every((w) => typeof w === 'string');
    let message: string | undefined;
    if (words(flags)) {
      const known = [...Object.keys({ ...ctor.baseFlags, ...ctor.flags }), ...(ctor.enableJsonFlag ? ['json'] : [])];
      message = unknownFlagMessage(flags, known);
    } else if (words(args) && Object.keys(ctor.args ?? {}).length === 0) {
      message = noArgumentsMessage(this.config.bin, this.id ?? '', args, ctor.reads);
    }
    return message === undefined ? error : new Errors.CLIError(message, { exit: EXIT.usage });
  }
}
