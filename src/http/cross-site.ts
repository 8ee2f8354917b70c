/**
 * No cross-site writes: a request that changes state must come from a client that could have
 * passed a CORS preflight. Browsers send `Origin` (and `Sec-Fetch-Site`) on every such request,
 * so one whose origin is neither this agent's own nor allowed by the CORS options is refused
 * before anything runs — on anonymous agents and with cookie credentials alike. Clients that are
 * not browsers send neither header and pass. The bindings add the other half: only JSON media
 * types, which a page cannot send cross-site without a preflight (docs/security.md).
 */
import { A2AError } from '../core/errors.js';
import { originMatcher, type CorsOptions } from './cors.js';
import type { HttpRequest } from './types.js';

/** Options of {@link crossSiteGuard}. */
export interface CrossSiteOptions {
  /** The CORS options of the handler: their origins are allowed. */
  readonly cors?: CorsOptions | undefined;
  /** The agent's public origin (`https://agent.example.com`), when known. */
  readonly baseUrl?: string | undefined;
}

/** The refusal of a cross-site state-changing request, or undefined when it may proceed. */
export type CrossSiteGuard = (req: HttpRequest) => A2AError | undefined;

/** Builds the guard of one handler. */
export function crossSiteGuard(options: CrossSiteOptions): CrossSiteGuard {
  const allowed = options.cors === undefined ? undefined : originMatcher(options.cors.origins);
  const own = options.baseUrl === undefined ? undefined : originOf(options.baseUrl);
  return (req) => {
    // Safe methods change nothing; their replies are withheld from other origins by CORS.
    const method = req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
    const origin = req.headers.get('origin');
    if (origin !== null) {
      if (isSameOrigin(origin, req, own) || allowed?.(origin) === true) return undefined;
      return refusal(`a page on ${shown(origin)} may not call this agent`, origin);
    }
    const site = req.headers.get('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') {
      return refusal(`the browser reports a ${site} request without an Origin`, undefined);
    }
    return undefined;
  };
}

function isSameOrigin(origin: string, req: HttpRequest, own: string | undefined): boolean {
  const asked = origin.toLowerCase();
  if (asked === 'null') return false; // sandboxed frames, file: pages
  if (own !== undefined && asked === own) return true;
  if (req.origin !== undefined && asked === req.origin.toLowerCase()) return true;
  const host = req.headers.get('host');
  const authority = asked.slice(asked.indexOf('://') + 3);
  return host !== null && authority === host.toLowerCase();
}

/** `scheme://host[:port]` of a URL, lower-case; the URL itself when it does not parse. */
function originOf(url: string): string {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

function shown(origin: string): string {
  return origin.length > 200 ? `${origin.slice(0, 200)}…` : origin;
}

function refusal(why: string, origin: string | undefined): A2AError {
  const fix =
    origin === undefined || origin === 'null'
      ? 'send it from a page on this agent\u2019s own origin'
      : `if it is your web app, allow it with the handler option cors: { origins: ['${shown(origin)}'] }`;
  return new A2AError(
    'PERMISSION_DENIED',
    `Cross-site request refused: ${why}; ${fix} (see docs/security.md, "Browsers and cross-site requests")`,
    { headers: { vary: 'Origin' } },
  );
}
