/**
 * Signs outgoing HTTP requests for a did:wba identity (ANP did:wba v1.1 §3): RFC 9421 HTTP
 * Message Signatures over `@method`, `@target-uri`, `@authority` and, for a request with a body,
 * `content-type` and the RFC 9530 `Content-Digest`; parameters `keyid` (the key's DID URL),
 * `created`, `expires` and a fresh `nonce`. The signature itself is made by the
 * http-message-signatures package with node:crypto; nothing here computes signatures by hand.
 */
import { randomBytes } from 'node:crypto';
import { createSigner, httpbis } from 'http-message-signatures';
import { contentDigest } from './digest.js';
import type { DidIdentity } from './identity.js';

/** The request a signature covers. */
export interface SignableRequest {
  readonly method: string;
  readonly url: string | URL;
  /** Headers to send (names in any case); `content-type` is covered when there is a body. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body bytes, if any. */
  readonly body?: Uint8Array | string | undefined;
}

/** Options of {@link signRequest}. */
export interface SignRequestOptions {
  /** Lifetime of the signature (`expires` − `created`); default 60 s. */
  readonly ttlSeconds?: number | undefined;
  /** The clock (tests). */
  readonly now?: (() => number) | undefined;
}

/** The signature name in `Signature-Input` / `Signature`. */
export const DID_SIGNATURE_LABEL = 'sig1';

/**
 * The headers to add to `request` so a did:wba verifier accepts it: `content-digest` (with a
 * body), `signature-input` and `signature`.
 */
export async function signRequest(
  identity: DidIdentity,
  request: SignableRequest,
  options: SignRequestOptions = {},
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  const hasBody = request.body !== undefined && request.body.length > 0;
  const fields = ['@method', '@target-uri', '@authority'];
  const added: Record<string, string> = {};
  if (hasBody) {
    added['content-digest'] = contentDigest(request.body);
    headers['content-digest'] = added['content-digest'];
    fields.push('content-digest');
    if (headers['content-type'] !== undefined) fields.push('content-type');
  }
  const nowMs = (options.now ?? Date.now)();
  const created = new Date(Math.floor(nowMs / 1000) * 1000);
  const expires = new Date(created.getTime() + (options.ttlSeconds ?? 60) * 1000);
  const signed = await httpbis.signMessage(
    {
      key: createSigner(identity.privateKey, identity.alg, identity.keyId),
      name: DID_SIGNATURE_LABEL,
      fields,
      params: ['keyid', 'created', 'expires', 'nonce'],
      paramValues: { created, expires, nonce: randomBytes(16).toString('base64url') },
    },
    { method: request.method.toUpperCase(), url: new URL(request.url).href, headers },
  );
  for (const [name, value] of Object.entries(signed.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'signature' || lower === 'signature-input') added[lower] = String(value);
  }
  return added;
}

/** Options of {@link didSignedFetch}. */
export interface DidSignedFetchOptions extends SignRequestOptions {
  /** The fetch that sends (default the global fetch). */
  readonly fetch?: typeof fetch | undefined;
}

/**
 * A fetch that signs every request as `identity`: give it to `A2AClient.connect(url, { fetch })`
 * and the card fetch, JSON-RPC and HTTP+JSON calls are all signed. Bodies must be strings or
 * bytes (what the a2a-kit transports send); a streamed body cannot be digested up front.
 */
export function didSignedFetch(
  identity: DidIdentity,
  options: DidSignedFetchOptions = {},
): typeof fetch {
  const send = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const request = new Request(input, init);
    const body = await bodyOf(input, init, request);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const added = await signRequest(
      identity,
      { method: request.method, url: request.url, headers, body },
      options,
    );
    const finalHeaders = new Headers(request.headers);
    for (const [name, value] of Object.entries(added)) finalHeaders.set(name, value);
    return send(request.url, {
      method: request.method,
      headers: finalHeaders,
      ...(body === undefined ? {} : { body: body as BodyInit }),
      signal: request.signal,
    });
  };
}

async function bodyOf(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
  request: Request,
): Promise<Uint8Array | string | undefined> {
  const given = init?.body ?? undefined;
  if (given === undefined || given === null) {
    if (input instanceof Request && input.body !== null)
      return new Uint8Array(await request.arrayBuffer());
    return undefined;
  }
  if (typeof given === 'string') return given;
  if (given instanceof Uint8Array) return given;
  if (given instanceof ArrayBuffer) return new Uint8Array(given);
  if (given instanceof ReadableStream) {
    throw new TypeError('didSignedFetch cannot sign a streamed body: send a string or bytes');
  }
  return new Uint8Array(await request.arrayBuffer());
}
