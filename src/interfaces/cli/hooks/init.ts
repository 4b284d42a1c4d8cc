import type { Hook } from '@oclif/core';

/**
 * One name for svc everywhere: oclif builds its user agent (the VERSION line of `svc --help`) from the npm package
 * name; `svc --version` (bin/run.js) prints the binary's name. Both say `svc/<version>`.
 */
const hook: Hook.Init = async function () {
  // Config declares userAgent read-only, but it is a plain field set once by Config.load.
  const config = this.config as { userAgent: string; bin: string };
  config.userAgent = config.userAgent.replace(/^[^/]+/, config.bin);
};

export default hook;
