import { NotFoundError } from '../../src/domain/errors';
import { withAliases } from '../../src/domain/fedramp/cr26-aliases';
import { readCr26Data } from '../../src/domain/fedramp/cr26-data';
import { readCr26Rules, type Cr26Rules } from '../../src/domain/fedramp/cr26-rules';
import type { FedrampRulesSource } from '../../src/ports/fedramp-rules-source';
import cr26Data from '../../src/domain/fedramp/data/cr26-rules.json';

/**
 * FEDRAMP_RULES_SOURCE with given rules; by default the checked-in CR26 data, read as the adapter reads it. `official`
 * parses the documents given by path, as an official file is parsed (bundled aliases laid over), or throws NotFoundError.
 */
export class FixedRulesSource implements FedrampRulesSource {
  constructor(
    private readonly fixed: Cr26Rules = builtInRules(),
    readonly officialDocuments: Record<string, unknown> = {},
  ) {}

  rules(): Cr26Rules {
    return this.fixed;
  }

  official(path: string): Cr26Rules {
    if (!(path in this.officialDocuments)) throw new NotFoundError('file-not-found', `${path}: no such FedRAMP rules file; check the path`);
    return withAliases(readCr26Rules(this.officialDocuments[path], path), builtInRules());
  }
}

/** The checked-in CR26 data as the model (a fresh copy each call). */
export function builtInRules(): Cr26Rules {
  return readCr26Data(structuredClone(cr26Data), 'cr26-rules.json');
}
