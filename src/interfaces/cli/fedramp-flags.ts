import { Flags } from '@oclif/core';
import { UsageError } from '../../domain/errors';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { parseCr26Class, parseFedrampType, type FedrampType } from '../../domain/fedramp/profile';
import { nowFlag, parseNow } from './flags';

/** `--class` and `--type` over the profile's, and `--now`: the flags every `fedramp` command that reads the profile takes. */
export const profileFlags = {
  class: Flags.string({ summary: "Certification Class, over the profile's fedramp.class.", helpValue: 'A|B|C|D' }),
  type: Flags.string({ summary: "Certification type, over the profile's fedramp.type.", helpValue: '20x|rev5' }),
  now: { ...nowFlag, summary: 'Judge effective dates, freshness and history at this time instead of now (ISO-8601 with a zone, or a date).' },
};

/** The parsed values of profileFlags; a value that is none is a usage error (exit 2). */
export function parseProfileFlags(flags: { class?: string; type?: string; now?: string }): { class?: Cr26Class; type?: FedrampType; now?: Date } {
  const cls =
    flags.class === undefined ? undefined : (parseCr26Class(flags.class) ?? refuse(`--class ${flags.class}: not a Certification Class; write A, B, C or D`));
  const type =
    flags.type === undefined ? undefined : (parseFedrampType(flags.type) ?? refuse(`--type ${flags.type}: not a certification type; write 20x or rev5`));
  const now = parseNow(flags.now);
  return { ...(cls === undefined ? {} : { class: cls }), ...(type === undefined ? {} : { type }), ...(now === undefined ? {} : { now }) };
}

function refuse(message: string): never {
  throw new UsageError('bad-flag-value', message);
}
