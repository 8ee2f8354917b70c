/**
 * NATS binding facts shared by client and server (docs/bindings/nats.md): the binding's URI,
 * subjects, the headers it reserves, and the interface URL `nats://host:port/<subject prefix>`.
 */
import type { OperationName } from '../../core/operations.js';

/** The card's `protocolBinding` of NATS interfaces (spec §5.8: a custom binding is a URI). */
export const NATS_BINDING = 'https://a2a-kit.dev/bindings/nats/v1';

/** Headers this binding reserves (lower-case; NATS header names are case-sensitive on the wire). */
export const NATS_HEADERS = {
  /** The protocol version, required on every request (spec §3.6). */
  version: 'a2a-version',
  /** Extension URIs, comma-separated; echoed back in the reply as the activated ones. */
  extensions: 'a2a-extensions',
  /** What a reply or stream message is: `ok`, `error`, `open`, `event`, `keepalive`, `end`. */
  kind: 'a2a-kind',
  /** The log sequence number of a stream event (the SSE `id` of the HTTP bindings). */
  seq: 'a2a-seq',
  /** SubscribeToTask: resume after this event id (the SSE `Last-Event-ID` of the HTTP bindings). */
  lastEventId: 'a2a-last-event-id',
  /** NATS micro's error headers, set on error replies for generic NATS tooling. */
  serviceError: 'Nats-Service-Error',
  serviceErrorCode: 'Nats-Service-Error-Code',
} as const;

/** Kinds of reply and stream messages. */
export type NatsMessageKind = 'ok' | 'error' | 'open' | 'event' | 'keepalive' | 'end';

/** The request subject of `operation` under an interface's subject prefix. */
export function operationSubject(prefix: string, operation: OperationName): string {
  return `${prefix}.${operation}`;
}

/** A NATS interface: the servers to connect to and the agent's subject prefix. */
export interface NatsAddress {
  /** `nats://host:port`. */
  readonly server: string;
  /** The agent's subject prefix, e.g. `a2a.echo`. */
  readonly prefix: string;
}

/** Reads `nats://host:port/<prefix>` (the prefix defaults to `a2a`). */
export function parseNatsUrl(url: string): NatsAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not a NATS interface URL: ${url}`);
  }
  if (parsed.protocol !== 'nats:' && parsed.protocol !== 'tls:') {
    throw new TypeError(`not a NATS interface URL (nats://host:port/subject): ${url}`);
  }
  const prefix = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'a2a';
  checkSubjectPrefix(prefix);
  const auth = parsed.username
    ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`
    : '';
  return { server: `${parsed.protocol}//${auth}${parsed.host}`, prefix };
}

/** The interface URL of `server` and `prefix`. */
export function natsUrl(server: string, prefix: string): string {
  return `${server.replace(/\/+$/, '')}/${prefix}`;
}

/** Checks a subject prefix: dot-separated tokens without wildcards or whitespace. */
export function checkSubjectPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new TypeError(
      `NATS subject prefix "${prefix}" must be tokens of [A-Za-z0-9_-] joined by dots`,
    );
  }
  return prefix;
}
