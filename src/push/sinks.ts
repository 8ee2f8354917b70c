/**
 * Push sinks: delivery targets other than webhooks, by URL scheme (`nats://subject` with the
 * NATS sink of `a2a-kit/stores/nats`). A sink goes through the same outbox, ordering, retries and
 * signing as a webhook: the notifier only asks it to check a URL and to send one delivery. Its
 * answer is judged like an HTTP status (2xx delivered, 408/429/5xx retried, others failed).
 */
import type { PushRequest, PushResponse, PushTransport } from './transport.js';

/** A delivery target for the URLs of one scheme. */
export interface PushSink {
  /** The URL scheme with its colon, e.g. `nats:`. */
  readonly protocol: string;
  /**
   * Checks a config URL of this scheme (at creation and before each attempt); returns why it
   * is refused, or undefined when it is accepted.
   */
  refusal(url: string): string | undefined;
  /** Sends one delivery; its answer as an HTTP-like status. */
  send(request: PushRequest): Promise<PushResponse>;
  /** Releases what the sink holds (called by the notifier's close). */
  close?(): Promise<void> | void;
}

/** A transport that hands the URLs of a sink's scheme to that sink, the rest to `fallback`. */
export function sinkTransport(sinks: readonly PushSink[], fallback: PushTransport): PushTransport {
  if (sinks.length === 0) return fallback;
  const byProtocol = new Map(sinks.map((s) => [s.protocol, s]));
  return (request) => byProtocol.get(request.url.protocol)?.send(request) ?? fallback(request);
}
