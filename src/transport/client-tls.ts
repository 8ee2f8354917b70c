/**
 * The PEM texts of a TLS client (mutual TLS, spec §7.4): what a transport that takes contents
 * rather than a fetch (the gRPC transport's `tls` option) needs to present a client certificate
 * and to trust a private CA. Runtime-neutral: reading the files is the caller's (in Node,
 * `clientTlsPem` of src/node/tls-fetch.ts).
 */

/** PEM texts: a certificate with its key, CAs to trust, or both. */
export interface ClientTlsPem {
  /** The client certificate chain (PEM). Goes with `key`. */
  readonly cert?: string | Uint8Array | undefined;
  /** Its private key (PEM). */
  readonly key?: string | Uint8Array | undefined;
  /** The CAs trusted for the server's certificate (PEM, several may be concatenated). */
  readonly ca?: string | Uint8Array | undefined;
}
