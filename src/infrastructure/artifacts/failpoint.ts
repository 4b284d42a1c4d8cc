/**
 * Crash tests place a SIGKILL at a named step of a multi-step write: `SVC_FAILPOINT=<name>` kills this process
 * there, outright, as a power loss or the OOM killer would (test/e2e/crash-safety.test.ts). Unset, it does nothing.
 */
export function failpoint(name: string): void {
  if (process.env.SVC_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
