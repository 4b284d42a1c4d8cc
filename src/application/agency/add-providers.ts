import { inject, injectable } from 'tsyringe';
import { InvalidInputError } from '../../domain/errors';
import { providersFromCpos, type SkippedCpo } from '../../domain/agency/cpo-import';
import { clearTextProblem, FEDRAMP_ID, normalizeTrustCenterUrl, PROVIDER_NAME, type AgencyProvider, type ProviderAuth } from '../../domain/agency/providers';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';

/** The provider as given (its URL normalized and its fields checked before it is written), and whether it may replace one of the same name. */
export interface AddProviderInput extends AgencyProvider {
  replace: boolean;
}

export interface AddProvidersResult {
  /** The configuration file written. */
  file: string;
  providers: AgencyProvider[];
  /** `import` only: the CPOs of the file that name no usable trust center. */
  skipped: SkippedCpo[];
}

/** `svc agency add` (DESIGN §14): one provider's trust center and how to authenticate to it, into svc.config.json. */
@injectable()
export class AddProvider {
  constructor(@inject(AGENCY_CONFIG) private readonly config: AgencyConfig) {}

  async execute(input: AddProviderInput): Promise<AddProvidersResult> {
    if (!PROVIDER_NAME.test(input.name))
      throw new InvalidInputError(
        'agency-provider-name',
        `<name> "${input.name}": use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit`,
      );
    const url = normalizeTrustCenterUrl(input.url);
    if ('problem' in url) throw new InvalidInputError('agency-provider-url', `--url: ${url.problem}`);
    const clear = clearTextProblem(url.url, input.auth);
    if (clear !== undefined) throw new InvalidInputError('agency-provider-url', `--url: ${clear}`);
    if (input.fedrampId !== undefined && !FEDRAMP_ID.test(input.fedrampId))
      throw new InvalidInputError('agency-fedramp-id', `--fedramp-id "${input.fedrampId}": give the FedRAMP ID as FedRAMP assigned it, such as FR2611250001`);
    const provider: AgencyProvider = {
      name: input.name,
      url: url.url,
      ...(input.fedrampId === undefined ? {} : { fedrampId: input.fedrampId }),
      ...(input.class === undefined ? {} : { class: input.class }),
      auth: input.auth,
      ...(input.ca === undefined ? {} : { ca: input.ca }),
    };
    await this.config.addProviders([provider], { replace: input.replace });
    return { file: this.config.file, providers: [provider], skipped: [] };
  }
}

export interface ImportProvidersInput {
  file: string;
  /** How to authenticate to every provider imported (default none). */
  auth: ProviderAuth;
  ca?: string;
  replace: boolean;
}

/**
 * `svc agency import` (DESIGN §14): providers from CPO documents — one, or a list in the CPO schema's shape as
 * FedRAMP's marketplace export publishes them — each named by its service acronym, with its trust center's base and
 * FedRAMP ID from the CPO. A CPO naming no usable trust center is skipped and said; none usable is an input error.
 */
@injectable()
export class ImportProviders {
  constructor(
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(REPORT_READER) private readonly reader: ReportReader,
  ) {}

  async execute(input: ImportProvidersInput): Promise<AddProvidersResult> {
    const file = await this.reader.read(input.file);
    const existing = new Set(this.config.settings().providers.map((p) => p.name));
    // With --replace a CPO takes over its name; without, an imported name never clashes with one configured.
    const { providers: found, skipped } = providersFromCpos(file.document, input.replace ? new Set() : existing);
    if (found.length === 0)
      throw new InvalidInputError(
        'agency-import-empty',
        `${file.path}: ${skipped.length === 0 ? 'holds no CPO (an object with serviceIdentification, or a list of them)' : `no CPO names a usable trust center (${skipped.map((s) => `${s.at} ${s.reason}`).join('; ')})`}; give a CPO document or a marketplace export of them`,
      );
    const providers = found.map(({ name, url, fedrampId }): AgencyProvider => ({
      name,
      url,
      ...(fedrampId === undefined ? {} : { fedrampId }),
      auth: input.auth,
      ...(input.ca === undefined ? {} : { ca: input.ca }),
    }));
    await this.config.addProviders(providers, { replace: input.replace });
    return { file: this.config.file, providers, skipped };
  }
}
