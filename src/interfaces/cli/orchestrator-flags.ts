import { Flags } from '@oclif/core';

/** `--config`, taken by every orchestrator command. */
export const orchestratorConfigFlag = Flags.string({
  summary: 'The jobs file (default: svc.orchestrator.json in the working directory).',
  helpValue: '<file>',
});
