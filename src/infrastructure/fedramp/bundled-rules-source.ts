import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseJson } from '../../domain/encoding/json-syntax-problem';
import { withAliases } from '../../domain/fedramp/cr26-aliases';
import { readCr26Data } from '../../domain/fedramp/cr26-data';
import { readCr26Rules, type Cr26Rules } from '../../domain/fedramp/cr26-rules';
import type { FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { translateFsError } from '../shared/fs-errors';

/**
 * The CR26 rules shipped in domain/fedramp/data/cr26-rules.json (written by scripts/build-cr26.js: FedRAMP's data is
 * domain knowledge, so the test double reads the same file), or the official rules file `officialFile` names
 * (SVC_FEDRAMP_RULES), read through node:fs and parsed with the same parser. Each is loaded on first use.
 */
export class BundledRulesSource implements FedrampRulesSource {
  private bundled?: Cr26Rules;
  private inUse?: Cr26Rules;

  constructor(private readonly options: { officialFile?: string } = {}) {}

  rules(): Cr26Rules {
    const file = this.options.officialFile;
    this.inUse ??= file === undefined ? this.bundledRules() : this.read(file, `${file} (SVC_FEDRAMP_RULES)`);
    return this.inUse;
  }

  official(path: string): Cr26Rules {
    return this.read(path, path);
  }

  private bundledRules(): Cr26Rules {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.bundled ??= readCr26Data(require('../../domain/fedramp/data/cr26-rules.json'), 'svc/domain/fedramp/data/cr26-rules.json');
    return this.bundled;
  }

  /** Reads and parses an official file; `label` names it in errors. */
  private read(path: string, label: string): Cr26Rules {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw translateFsError(error, label, 'FedRAMP rules file');
    }
    const rules = readCr26Rules(parseJson(bytes.toString('utf8').replace(/^\uFEFF/, ''), label), label);
    const source = { file: basename(path), version: rules.info.version, sha256: createHash('sha256').update(bytes).digest('hex') };
    return { ...withAliases(rules, this.bundledRules()), source };
  }
}
