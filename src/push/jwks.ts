/**
 * The public keys of push signatures, served as a JWKS at `/.well-known/a2a-push-jwks.json` so
 * webhooks can verify deliveries (spec §13.2's suggested asymmetric scheme). A small
 * runtime-neutral handler over a2a-kit's HTTP model; mount it next to the A2A handler.
 */
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { PushSigner } from './signing.js';

/** Where the push JWKS is served. */
export const PUSH_JWKS_PATH = '/.well-known/a2a-push-jwks.json';

/** Options of {@link createPushJwksHandler}. */
export interface PushJwksHandlerOptions {
  /** `max-age` of the document; default 300 s (short, so rotations reach receivers quickly). */
  readonly maxAgeSeconds?: number;
}

/**
 * A handler answering GET/HEAD with the signer's current public JWKS (re-read on every request,
 * so a rotation shows at once) as `application/jwk-set+json`.
 */
export function createPushJwksHandler(
  signer: PushSigner,
  options: PushJwksHandlerOptions = {},
): (req: HttpRequest) => Promise<HttpResponse> {
  const maxAge = options.maxAgeSeconds ?? 300;
  return async (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return {
        status: 405,
        headers: { allow: 'GET, HEAD', 'content-type': 'application/json' },
        body: '{"error":"use GET"}',
      };
    }
    const body = JSON.stringify(await signer.jwks());
    return {
      status: 200,
      headers: {
        'content-type': 'application/jwk-set+json',
        'cache-control': `public, max-age=${maxAge}`,
        'access-control-allow-origin': '*',
      },
      body: req.method === 'HEAD' ? undefined : body,
    };
  };
}
