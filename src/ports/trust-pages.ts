import type { InjectionToken } from 'tsyringe';
import type { TrustPage } from '../domain/trust/trust-page';

/**
 * The trust center's human-readable pages (CDS-TRC-HMR): one self-contained HTML page per document, from the page
 * model the JSON document gives (domain/trust/trust-page.ts). Nothing loads from the network; the page's one inline
 * script is allowed by its hash, so a server sending its own Content-Security-Policy must allow that hash too.
 */
export interface TrustPages {
  page(model: TrustPage): string;
}

export const TRUST_PAGES: InjectionToken<TrustPages> = Symbol('TrustPages');
