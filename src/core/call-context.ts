/**
 * The per-call context every operation receives from its binding, and the transport facts it is
 * built from (headers, the TLS client certificate).
 */

/** Case-insensitive header lookup; callers always pass lower-case names. */
export interface HttpHeaders {
  get(name: string): string | null;
}

/** The TLS client certificate of a request (mutual TLS), as the server's TLS layer saw it. */
export interface ClientCertificate {
  /** Subject attributes (`CN`, `O`, `OU`, …); a repeated attribute keeps its first value. */
  readonly subject: Readonly<Record<string, string>>;
  /** The subject as one string, `CN=alice,O=Example` (attribute order as in the certificate). */
  readonly subjectName: string;
  /** The issuer as one string, like `subjectName`. */
  readonly issuerName: string;
  /** SHA-256 fingerprint, colon-separated hex (as node:tls reports it). */
  readonly fingerprint256: string;
  /** True when the chain verified against the server's trusted CAs. */
  readonly authorized: boolean;
  /** Why it did not verify (node:tls `authorizationError`), when it did not. */
  readonly authorizationError?: string | undefined;
}

/** The authenticated caller (filled by authentication; anonymous when absent). */
export interface Principal {
  /** Stable identifier: tasks and push configs belong to it. */
  readonly id: string;
  readonly [claim: string]: unknown;
}

/** What a binding knows about one call, beyond its parameters. */
export interface CallContext {
  /** The tenant of the request (REST `/{tenant}` prefix, or the `tenant` field). */
  tenant?: string | undefined;
  /** The authenticated caller, if any. */
  principal?: Principal | undefined;
  /** Extension URIs the client asked to activate (`A2A-Extensions`). */
  requestedExtensions?: readonly string[] | undefined;
  /** Filled by the server: the extensions it activated, for the `A2A-Extensions` reply header. */
  activatedExtensions?: string[] | undefined;
  /**
   * Filled by the server when it opens a task stream: the id of the stream's first event, as a
   * cursor (core/event-cursor.ts). The gRPC binding sends it in the stream's initial metadata.
   */
  firstEventId?: string | undefined;
  /**
   * The A2A version the call was made in, when not 1.0: `'0.3'` for calls of the 0.3 bindings
   * (the server remembers it with a push config, whose deliveries then take that version's form).
   */
  protocolVersion?: string | undefined;
  /** The card's `protocolBinding` of the interface the call came in on (`JSONRPC`, `GRPC`, …). */
  protocolBinding?: string | undefined;
  /** The peer's IP address, when the transport knows it (quotas of anonymous callers). */
  remoteAddress?: string | undefined;
  /** Aborted when the caller goes away; never cancels a task (spec §3.5.2). */
  signal?: AbortSignal | undefined;
  /**
   * The request's headers (gRPC: its text metadata), for middleware that reads what the binding
   * does not interpret, such as the W3C `traceparent` of tracing.
   */
  readonly headers?: HttpHeaders | undefined;
}
