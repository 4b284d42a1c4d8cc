import type { InjectionToken } from 'tsyringe';

export interface ProcessOutcome {
  /** The exit code, or null when the process was killed by a signal or never started. */
  exitCode: number | null;
  /** Why it did not exit 0 ("exited with 2", "killed by SIGTERM", "could not start: ..."), undefined when it did. */
  problem?: string;
}

/** Runs a program to completion with its stdout and stderr appended to a log file. Never throws for the program's failure. */
export interface ProcessRunner {
  run(command: readonly string[], options: { cwd: string; log: string }): Promise<ProcessOutcome>;
}

export const PROCESS_RUNNER: InjectionToken<ProcessRunner> = Symbol('ProcessRunner');
