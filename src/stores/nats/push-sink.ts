/**
 * The NATS push sink: push configs whose URL is `nats://<subject>` get their deliveries as NATS
 * requests on that subject, through the notifier's outbox (same order, retries and signing as a
 * webhook; pass it as `createPushNotifier({ sinks: [natsPushSink(…)] })`).
 *
 * - Body: the StreamResponse JSON, as a webhook gets; the webhook headers become NATS headers
 *   (signature, token, `authorization`), and `Nats-Msg-Id` is the delivery id, so a JetStream
 *   stream capturing the subject stores a retried delivery once.
 * - Delivered when someone answers: the JetStream stream capturing the subject (its PubAck) or
 *   a subscriber's reply. No responders, a timeout or a JetStream error is retried later.
 * - Only subjects under `subjects` (prefixes, e.g. `a2a.push`) are accepted: clients must not be
 *   able to make the server publish on its own request subjects.
 */
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { checkPrefix, openNats, type NatsConnectionOptions } from './connection.js';

/** Options of {@link natsPushSink}. */
export interface NatsPushSinkOptions extends NatsConnectionOptions {
  /** Subject prefixes push configs may name (`a2a.push` accepts `a2a.push.x.y`). Required. */
  subjects: readonly string[];
}

/** One delivery as the notifier hands it over (structurally `PushRequest` of a2a-kit/push). */
interface SinkRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** A push sink for `nats://subject` URLs (structurally `PushSink` of a2a-kit/push). */
export interface NatsPushSink {
  readonly protocol: 'nats:';
  refusal(url: string): string | undefined;
  send(request: SinkRequest): Promise<{ status: number; retryAfter?: string | undefined }>;
  close(): Promise<void>;
}

const PUSH_ID = 'x-a2a-notification-id';

/** The subject of a `nats://subject` URL (case kept), or undefined when it is not one. */
export function pushSubject(url: string): string | undefined {
  const match = /^nats:\/\/([^/?#@:]+)\/?$/i.exec(url);
  return match?.[1];
}

/** The NATS push sink; it connects on first use (or uses `connection`). */
export function natsPushSink(options: NatsPushSinkOptions): NatsPushSink {
  const allowed = options.subjects.map(checkPrefix);
  if (allowed.length === 0) throw new TypeError('natsPushSink needs at least one subject prefix');
  let opened: Promise<{ nc: NatsConnection; owned: boolean }> | undefined;
  const connection = () => (opened ??= openNats(options));
  const refusal = (url: string): string | undefined => {
    const subject = pushSubject(url);
    if (subject === undefined) return 'a NATS push URL is nats://<subject>, nothing more';
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(subject)) {
      return `subject ${subject} has wildcards or characters NATS subjects may not hold`;
    }
    if (!allowed.some((p) => subject.startsWith(`${p}.`))) {
      return `subject ${subject} is not under ${allowed.map((p) => `${p}.`).join(' or ')}`;
    }
    return undefined;
  };
  return {
    protocol: 'nats:',
    refusal,
    async send(request) {
      const reason = refusal(request.url.href);
      if (reason !== undefined) return { status: 400 };
      const subject = pushSubject(request.url.href) as string;
      const { nc } = await connection();
      const h = natsHeaders();
      for (const [name, value] of Object.entries(request.headers)) h.set(name, value);
      const id = request.headers[PUSH_ID];
      if (id !== undefined) h.set('Nats-Msg-Id', id);
      try {
        const reply = await nc.request(subject, request.body, {
          headers: h,
          timeout: request.timeoutMs,
        });
        const code = Number(reply.headers?.get('Nats-Service-Error-Code') || 0);
        if (code >= 400) return { status: code };
        if (reply.data.length > 0 && isJetStreamError(reply.data)) return { status: 503 };
        return { status: 200 };
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        if (name === 'NoRespondersError' || /no responders/i.test(String(error))) {
          return { status: 503 }; // nobody listens yet: retried with backoff
        }
        throw new Error(`NATS push to ${subject} failed: ${String(error)}`); // retried
      }
    },
    async close() {
      const current = opened;
      opened = undefined;
      const o = await current?.catch(() => undefined);
      if (o?.owned) await o.nc.close();
    },
  };
}

/** True for a JetStream PubAck that reports an error (`{"error":{…}}`). */
function isJetStreamError(data: Uint8Array): boolean {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(data)) as { error?: unknown };
    return typeof parsed === 'object' && parsed !== null && parsed.error !== undefined;
  } catch {
    return false;
  }
}
