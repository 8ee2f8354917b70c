/**
 * The NATS connection behind the NATS event bus, push sink and binding: either one the caller
 * passes (shared, left open on close) or one opened from `nats://` URLs (owned, closed on close).
 * Reconnection is unlimited by default: a NATS restart is an outage to wait out, not an error.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';

/** How to reach NATS: an open connection, or the servers to connect to. */
export interface NatsConnectionOptions {
  /** An open connection (left open by `close()`). */
  connection?: NatsConnection | undefined;
  /** `nats://host:port` URL(s), when no `connection` is given (default `nats://127.0.0.1:4222`). */
  servers?: string | readonly string[] | undefined;
  /** Connection name shown by the NATS server's monitoring. */
  name?: string | undefined;
}

/** An open connection and whether closing it is ours to do. */
export interface OpenedNats {
  readonly nc: NatsConnection;
  readonly owned: boolean;
}

/** The default NATS URL. */
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/** Opens (or adopts) the connection `options` describe. */
export async function openNats(options: NatsConnectionOptions): Promise<OpenedNats> {
  if (options.connection) return { nc: options.connection, owned: false };
  const servers = options.servers ?? DEFAULT_NATS_URL;
  const nc = await connect({
    servers: typeof servers === 'string' ? servers : [...servers],
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    ...(options.name !== undefined ? { name: options.name } : {}),
  });
  return { nc, owned: true };
}

/**
 * A subject token for any id: ids made of `[A-Za-z0-9_-]` stand as they are; others become `~`
 * and their base64url UTF-8 bytes (NATS tokens may not hold `.`, `*`, `>` or whitespace); `''`
 * becomes `~` alone. Raw ids never start with `~`, so two ids never share a token.
 */
export function subjectToken(id: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(id)) return id;
  return `~${Buffer.from(id, 'utf8').toString('base64url')}`;
}

/** Checks a subject prefix: dot-separated tokens without wildcards or whitespace. */
export function checkPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new Error(
      `a2a-kit: NATS subject prefix "${prefix}" must be tokens of [A-Za-z0-9_-] joined by dots`,
    );
  }
  return prefix;
}
