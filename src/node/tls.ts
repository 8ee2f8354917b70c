/**
 * HTTPS for serve() (spec §7.1, requirement 191 of test/conformance/requirements.ts): a node:https server with a certificate and key,
 * TLS 1.2 at least, optional client certificates (mutual TLS) checked by the application layer
 * so the public card stays reachable and a missing certificate gets a 401 that says so, and HSTS.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerOptions } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { HttpHandler } from '../http/types.js';
import { clientCertificateOf } from '../security/auth/certificate.js';
import type { ClientCertificate } from '../core/call-context.js';

/** PEM text or bytes. */
export type Pem = string | Uint8Array;

/** Options of serve()'s `tls`. */
export interface TlsOptions {
  /** The server certificate chain (PEM). */
  readonly cert: Pem;
  /** Its private key (PEM). */
  readonly key: Pem;
  /** CAs that issue client certificates (mutual TLS); default the system roots. */
  readonly ca?: Pem | readonly Pem[] | undefined;
  /**
   * Ask clients for a certificate (mutual TLS). A connection without one is still accepted, so
   * the card stays public; the mtls scheme then refuses the call with 401.
   */
  readonly requestCert?: boolean | undefined;
  /** Lowest TLS version (default `TLSv1.2`; SSLv3, TLS 1.0 and 1.1 are never offered). */
  readonly minVersion?: 'TLSv1.2' | 'TLSv1.3' | undefined;
  /** `Strict-Transport-Security: max-age=N` on every reply (default one year); `false`: none. */
  readonly hstsMaxAgeSeconds?: number | false | undefined;
}

/**
 * A node:https server for `tls` (no listener attached yet), with the node:http `limits` (timeouts);
 * the TLS handshake gets the headers timeout.
 */
export function createTlsServer(tls: TlsOptions, limits: ServerOptions = {}): Server {
  const pem = (value: Pem) => (typeof value === 'string' ? value : Buffer.from(value));
  const ca =
    tls.ca === undefined ? undefined : Array.isArray(tls.ca) ? tls.ca.map(pem) : pem(tls.ca as Pem);
  return createServer({
    ...limits,
    ...(limits.headersTimeout === undefined ? {} : { handshakeTimeout: limits.headersTimeout }),
    cert: pem(tls.cert),
    key: pem(tls.key),
    ...(ca === undefined ? {} : { ca }),
    requestCert: tls.requestCert ?? false,
    // Verified by the application (ClientCertificate.authorized), never by dropping the handshake.
    rejectUnauthorized: false,
    minVersion: tls.minVersion ?? 'TLSv1.2',
  });
}

/** The peer of a request: its IP address and, on TLS, its client certificate. */
export function peerOf(req: IncomingMessage): {
  remoteAddress?: string;
  clientCertificate?: ClientCertificate;
} {
  const socket = req.socket as Partial<TLSSocket>;
  const remoteAddress = socket.remoteAddress;
  const result: { remoteAddress?: string; clientCertificate?: ClientCertificate } =
    remoteAddress === undefined ? {} : { remoteAddress };
  if (socket.encrypted === true && typeof socket.getPeerCertificate === 'function') {
    const certificate = clientCertificateOf(
      socket.getPeerCertificate(),
      socket.authorized === true,
      socket.authorizationError,
    );
    if (certificate !== undefined) result.clientCertificate = certificate;
  }
  return result;
}

/** `handler` with `Strict-Transport-Security` on every reply (RFC 6797). */
export function withHsts(handler: HttpHandler, maxAgeSeconds: number): HttpHandler {
  const value = `max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`;
  return async (req) => {
    const response = await handler(req);
    response.headers = { ...response.headers, 'strict-transport-security': value };
    return response;
  };
}
