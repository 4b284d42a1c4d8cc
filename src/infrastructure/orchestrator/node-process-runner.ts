import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { ProcessOutcome, ProcessRunner } from '../../ports/process-runner';
import { translateFsError } from '../shared/fs-errors';

/** Runs a program with node:child_process, no shell, its stdout and stderr appended to the log file. */
export class NodeProcessRunner implements ProcessRunner {
  async run(command: readonly string[], { cwd, log }: { cwd: string; log: string }): Promise<ProcessOutcome> {
    let handle;
    try {
      handle = await open(log, 'a', 0o600);
    } catch (error) {
      throw translateFsError(error, log, 'command log');
    }
    try {
      const [program, ...args] = command;
      return await new Promise<ProcessOutcome>((resolve) => {
        const child = spawn(program, args, { cwd, stdio: ['ignore', handle.fd, handle.fd], windowsHide: true });
        child.on('error', (error) => resolve({ exitCode: null, problem: `could not start: ${error.message}` }));
        child.on('exit', (code, signal) => {
          if (code === 0) resolve({ exitCode: 0 });
          else resolve({ exitCode: code, problem: code === null ? `was killed by ${signal}` : `exited with ${code}` });
        });
      });
    } finally {
      await handle.close();
    }
  }
}
