/**
 * The {@link ClientCertificate} of a TLS peer certificate as node:tls (and grpc-js, which uses
 * it) reports one. Typed structurally, so this module stays free of `node:*` imports.
 */
import type { ClientCertificate } from './types.js';

/** The fields of node:tls `PeerCertificate` this module reads. */
export interface PeerCertificateLike {
  readonly subject?: Readonly<Record<string, string | readonly string[] | undefined>> | undefined;
  readonly issuer?: Readonly<Record<string, string | readonly string[] | undefined>> | undefined;
  readonly fingerprint256?: string | undefined;
}

/**
 * The client certificate of a peer, or undefined when the peer sent none (node reports an empty
 * object then). `authorized` is whether the chain verified against the server's CAs.
 */
export function clientCertificateOf(
  peer: PeerCertificateLike | null | undefined,
  authorized: boolean,
  authorizationError?: string | Error | null,
): ClientCertificate | undefined {
  if (peer === null || peer === undefined || peer.subject === undefined) return undefined;
  const subject = attributes(peer.subject);
  const reason =
    authorizationError === null || authorizationError === undefined
      ? undefined
      : String(
          authorizationError instanceof Error ? authorizationError.message : authorizationError,
        );
  return {
    subject,
    subjectName: distinguishedName(peer.subject),
    issuerName: peer.issuer === undefined ? '' : distinguishedName(peer.issuer),
    fingerprint256: peer.fingerprint256 ?? '',
    authorized,
    ...(reason === undefined ? {} : { authorizationError: reason }),
  };
}

function attributes(
  name: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(name)) {
    const first = typeof value === 'string' ? value : value?.[0];
    if (first !== undefined) result[key] = first;
  }
  return result;
}

/** `CN=alice,O=Example`: RFC 4514 escaping of `,`, `+`, `"`, `\`, `<`, `>`, `;` and `=`. */
function distinguishedName(
  name: Readonly<Record<string, string | readonly string[] | undefined>>,
): string {
  const escape = (v: string) => v.replace(/[,+"\\<>;=]/g, '\\$&');
  return Object.entries(name)
    .flatMap(([key, value]) =>
      (typeof value === 'string' ? [value] : (value ?? [])).map((v) => `${key}=${escape(v)}`),
    )
    .join(',');
}
