import { createHash } from 'node:crypto';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of a self-contained page the API serves: helmet's own policy, which the front door sends
 * with every response, with `script-src` also allowing each inline `<script>` of the page by its SHA-256 (CSP Level 2
 * hash source). Nothing else is loosened: the page's scripts run, any script injected into it does not, and the page
 * still loads nothing from elsewhere.
 */
export function pageSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
  const directives = helmet.contentSecurityPolicy.getDefaultDirectives();
  let policy = '';
  const capture = { setHeader: (_name: string, value: unknown) => (policy = String(value)), removeHeader: () => undefined };
  helmet.contentSecurityPolicy({ useDefaults: false, directives: { ...directives, 'script-src': [...directives['script-src'], ...hashes] } })(
    {} as never,
    capture as never,
    () => undefined,
  );
  return policy;
}
