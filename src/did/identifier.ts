/**
 * did:wba identifiers (ANP did:wba method v1.1 §2): `did:wba:<host>[:<path>…]`, a port written
 * `%3A`. The document lives at `https://<host>/.well-known/did.json` for a bare host and at
 * `https://<host>/<path…>/did.json` for a path DID. A DID URL adds `#<fragment>` (a key).
 * A path DID whose last segment is `e1_<fingerprint>` uses the `e1_` profile (§2.2.1): the
 * fingerprint is the RFC 7638 thumbprint of its Ed25519 binding key, and its document must carry
 * a proof by that key (src/did/e1.ts). The `k1_` profile (Appendix A, secp256k1) is refused.
 */
import { DidAuthError } from './errors.js';

const PREFIX = 'did:wba:';

/** A parsed did:wba identifier. */
export interface DidWba {
  /** The DID, without fragment. */
  readonly did: string;
  /** `host[:port]` of the document. */
  readonly authority: string;
  /** Decoded path segments (empty for a bare host DID). */
  readonly path: readonly string[];
  /** Where the DID document is fetched. */
  readonly documentUrl: string;
  /** The `e1_` fingerprint (43 base64url characters, without `e1_`) of an `e1_` path DID. */
  readonly e1Fingerprint?: string | undefined;
}

/** The prefix of the last path segment of an `e1_` profile DID. */
export const E1_PREFIX = 'e1_';

const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Parses a did:wba DID (no fragment); throws DidAuthError UNSUPPORTED_DID saying what is wrong. */
export function parseDidWba(did: string): DidWba {
  const refuse = (why: string) =>
    new DidAuthError('UNSUPPORTED_DID', `${JSON.stringify(did)} is not a did:wba DID: ${why}`);
  if (!did.startsWith(PREFIX)) throw refuse(`it does not start with ${PREFIX}`);
  if (did.includes('#') || did.includes('?')) throw refuse('it carries a fragment or query');
  const [encodedHost = '', ...segments] = did.slice(PREFIX.length).split(':');
  let authority: string;
  let path: string[];
  try {
    authority = decodeURIComponent(encodedHost).toLowerCase();
    path = segments.map((s) => decodeURIComponent(s));
  } catch {
    throw refuse('it has a bad percent-encoding');
  }
  const [host = '', port, extra] = authority.split(':');
  if (extra !== undefined) throw refuse('the host has more than one port separator');
  if (port !== undefined && !/^\d{1,5}$/.test(port))
    throw refuse(`the port ${port} is not a number`);
  if (/^\d+(\.\d+){3}$/.test(host) || host.startsWith('[')) {
    throw refuse('the method allows a domain name, not an IP address');
  }
  if (!host.split('.').every((label) => HOST_LABEL.test(label))) {
    throw refuse(`${host} is not a domain name`);
  }
  if (path.some((s) => s === '' || s === '.' || s === '..' || s.includes('/'))) {
    throw refuse('a path segment is empty, a dot segment or contains "/"');
  }
  const last = path.at(-1) ?? '';
  let e1Fingerprint: string | undefined;
  if (last.startsWith(E1_PREFIX)) {
    e1Fingerprint = last.slice(E1_PREFIX.length);
    if (!/^[A-Za-z0-9_-]{43}$/.test(e1Fingerprint)) {
      throw refuse('its e1_ fingerprint is not 43 base64url characters (ANP did:wba v1.1 §2.2.2)');
    }
  } else if (last.startsWith('k1_')) {
    throw refuse('the k1_ profile (secp256k1, ANP did:wba Appendix A) is not supported');
  }
  const base = `https://${authority}`;
  const documentUrl =
    path.length === 0
      ? `${base}/.well-known/did.json`
      : `${base}/${path.map(encodeURIComponent).join('/')}/did.json`;
  return { did, authority, path, documentUrl, ...(e1Fingerprint ? { e1Fingerprint } : {}) };
}

/** Splits a DID URL (`did:wba:host#key-1`) into DID and fragment; throws when there is none. */
export function splitDidUrl(didUrl: string): { readonly did: string; readonly fragment: string } {
  const hash = didUrl.indexOf('#');
  if (hash <= 0 || hash === didUrl.length - 1) {
    throw new DidAuthError(
      'UNSUPPORTED_DID',
      `keyid ${JSON.stringify(didUrl)} is not a DID URL naming a key (did:wba:host#key-1)`,
    );
  }
  return { did: didUrl.slice(0, hash), fragment: didUrl.slice(hash + 1) };
}

/**
 * The did:wba DID of a public https URL: `https://example.com` → `did:wba:example.com`,
 * `https://example.com:8443/agents/a` → `did:wba:example.com%3A8443:agents:a` (its document is
 * then served at `/agents/a/did.json`).
 */
export function didWbaForUrl(url: string | URL): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:')
    throw new TypeError(`did:wba needs an https URL, not ${parsed.href}`);
  const authority = parsed.port === '' ? parsed.hostname : `${parsed.hostname}%3A${parsed.port}`;
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const did = [
    PREFIX + authority,
    ...segments.map((s) => encodeURIComponent(decodeURIComponent(s))),
  ].join(':');
  parseDidWba(did); // the same rules as a verifier applies
  return did;
}

/** The path a DID's document is served at on its own host (`/.well-known/did.json`, `/a/b/did.json`). */
export function didDocumentPath(did: string): string {
  return new URL(parseDidWba(did).documentUrl).pathname;
}
