/**
 * How 0.3 is served next to 1.0 at the same URLs (spec §3.6.2: a request without `A2A-Version`
 * is 0.3): each 1.0 HTTP binding is wrapped so that 0.3 requests reach the 0.3 handler and
 * everything else the 1.0 one. JSON-RPC tells them apart by the header (0.3 method names go to
 * the 0.3 dispatcher; a 1.0 method name without the header gets the 1.0 version error), HTTP+JSON
 * by the header and the `/v1` prefix of the 0.3 routes. The card lists each binding once more
 * with `protocolVersion: "0.3"`, after the 1.0 entries.
 */
import type { HttpBinding } from '../../http/binding.js';
import { requestedVersion } from '../../http/service-params.js';
import type { HttpRequest } from '../../http/types.js';
import { requestIdJson } from '../jsonrpc/server.js';
import { hybridCard } from './card.js';
import { handleJsonRpc03, refuseJsonRpc03 } from './jsonrpc-server.js';
import { errorResponse03, handleRest03 } from './rest-server.js';
import { isV03Version, V03_VERSION } from './wire.js';

export type { CompatVersion } from '../../core/service.js';

const isV03 = (req: HttpRequest, query: string) => isV03Version(requestedVersion(req, query));

/** `binding` (the 1.0 JSON-RPC binding) also serving 0.3 JSON-RPC at its URL. */
export function jsonRpcWithV03(binding: HttpBinding): HttpBinding {
  return {
    ...binding,
    alsoVersions: [V03_VERSION],
    handle: (req, rest, query, ctx) =>
      isV03(req, query) ? handleJsonRpc03(req, ctx) : binding.handle(req, rest, query, ctx),
    refuse: (req, error, ctx) =>
      isV03(req, '')
        ? refuseJsonRpc03(requestIdJson(req, ctx.maxBodyBytes), error, ctx)
        : binding.refuse(req, error, ctx),
  };
}

/** `binding` (the 1.0 HTTP+JSON binding) also serving the 0.3 routes under `/v1`. */
export function restWithV03(binding: HttpBinding): HttpBinding {
  const legacy = (req: HttpRequest, rest: string, query: string) =>
    (rest === '/v1' || rest.startsWith('/v1/')) && isV03(req, query);
  return {
    ...binding,
    alsoVersions: [V03_VERSION],
    handle: (req, rest, query, ctx) =>
      legacy(req, rest, query)
        ? handleRest03(req, rest.slice(3), query, ctx)
        : binding.handle(req, rest, query, ctx),
    refuse: (req, error, ctx) => {
      const path = req.url.split('?')[0] ?? '';
      return path.includes(`${binding.path}/v1/`) && isV03(req, '')
        ? errorResponse03(error)
        : binding.refuse(req, error, ctx);
    },
  };
}

/** The `versionedCard` of the router: the hybrid card for 0.3 requests (no `A2A-Version`). */
export const V03_CARD = {
  when: isV03Version,
  card: (card: object) => hybridCard(card as Record<string, unknown>),
};
