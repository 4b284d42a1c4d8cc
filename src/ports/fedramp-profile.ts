import type { InjectionToken } from 'tsyringe';
import type { ConfiguredFedrampProfile } from '../domain/fedramp/profile';

/**
 * The offering's FedRAMP profile: the `fedramp` section of svc.config.json (DESIGN §12.1), its values checked when the
 * file is read, with the file's path for messages. Keys the file leaves out are absent; each use case asks for the
 * keys it needs with `requireProfileKeys` (domain/fedramp/profile.ts).
 */
export type FedrampProfileSettings = ConfiguredFedrampProfile;

export const FEDRAMP_PROFILE: InjectionToken<FedrampProfileSettings> = Symbol('FedrampProfile');
