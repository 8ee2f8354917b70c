/**
 * The inspector's built-in webhook receiver (spec §4.3.3): each registration gets its own path on
 * the inspector's loopback server and a fresh config token; deliveries are checked with
 * push/receiver.ts (signature against the agent's push JWKS, body hash, token, `jti` replay) and
 * kept, accepted or refused with the reason, for the push view.
 */
import { decodeProtectedHeader } from 'jose';
import { newId } from '../core/ids.js';
import type { StreamResponse } from '../core/schemas/index.js';
import {
  PushRejected,
  createPushReceiver,
  type PushReceiver,
  type PushRejectReason,
} from '../push/receiver.js';
import { PUSH_SIGNATURE_HEADER, PUSH_TOKEN_HEADER } from '../push/signing.js';

/** One registered webhook. */
export interface Hook {
  readonly id: string;
  readonly taskId: string;
  readonly url: string;
  readonly jwksUrl?: string | undefined;
  /** The token given in the push config (kept server side; shown masked). */
  readonly token: string;
  readonly created: number;
}

/** One delivery as the push view shows it. */
export interface Delivery {
  readonly seq: number;
  readonly time: number;
  readonly hookId: string;
  readonly accepted: boolean;
  /** `verified` (checked against the JWKS), `token-only`, or the refusal reason. */
  readonly signature: 'verified' | 'token-only' | PushRejectReason;
  /** `fresh` for a first delivery of its `jti`, `replayed` when seen before, else unknown. */
  readonly replay: 'fresh' | 'replayed' | 'unknown';
  readonly kid?: string | undefined;
  readonly issuer?: string | undefined;
  readonly taskId?: string | undefined;
  readonly message?: string | undefined;
  readonly event?: StreamResponse | undefined;
  /** HTTP status the webhook answered. */
  readonly status: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const KEEP = 1000;

/** The webhooks and what arrived on them. */
export class PushHooks {
  private readonly hooks = new Map<string, { hook: Hook; receiver: PushReceiver }>();
  private readonly log: Delivery[] = [];
  private seq = 0;

  /** A new webhook for `taskId` at `${origin}${path}/<id>`, checked against `jwksUrl` when given. */
  add(taskId: string, origin: string, path: string, jwksUrl?: string): Hook {
    const id = newId();
    const token = `inspector-${newId()}`;
    const hook: Hook = {
      id,
      taskId,
      url: `${origin}${path}/${id}`,
      ...(jwksUrl ? { jwksUrl } : {}),
      token,
      created: Date.now(),
    };
    const insecure = jwksUrl !== undefined && LOOPBACK.test(new URL(jwksUrl).hostname);
    const receiver = createPushReceiver({
      ...(jwksUrl ? { jwks: jwksUrl, allowInsecure: insecure } : {}),
      token,
      acceptTask: (t) => t === taskId,
    });
    this.hooks.set(id, { hook, receiver });
    return hook;
  }

  list(): Hook[] {
    return [...this.hooks.values()].map((h) => h.hook);
  }

  /** Deliveries with a seq above `after`. */
  since(after = 0): Delivery[] {
    return this.log.filter((d) => d.seq > after);
  }

  /** Checks one POST to hook `id`; resolves to the status to answer. */
  async receive(
    id: string,
    headers: { get(name: string): string | null },
    body: string | Uint8Array,
  ): Promise<number> {
    const entry = this.hooks.get(id);
    if (!entry) return 404;
    // Adapters' header lookups may be case-sensitive on lower-case names.
    const signature = headers.get(PUSH_SIGNATURE_HEADER.toLowerCase()) ?? undefined;
    const header = signature ? safeHeader(signature) : {};
    const plain: Record<string, string> = {};
    for (const name of [PUSH_SIGNATURE_HEADER, PUSH_TOKEN_HEADER].map((n) => n.toLowerCase())) {
      const value = headers.get(name);
      if (value !== null) plain[name] = value;
    }
    try {
      const push = await entry.receiver.verify({ headers: plain, body });
      this.record({
        hookId: id,
        accepted: true,
        signature: push.claims ? 'verified' : 'token-only',
        replay: push.claims ? 'fresh' : 'unknown',
        kid: header.kid,
        issuer: push.claims?.iss,
        taskId: push.taskId,
        event: push.event,
        status: 204,
      });
      return 204;
    } catch (error) {
      const rejected =
        error instanceof PushRejected
          ? error
          : new PushRejected('BAD_BODY', error instanceof Error ? error.message : String(error));
      this.record({
        hookId: id,
        accepted: false,
        signature: rejected.reason,
        replay: rejected.reason === 'REPLAYED' ? 'replayed' : 'unknown',
        kid: header.kid,
        message: rejected.message,
        status: rejected.status,
      });
      return rejected.status;
    }
  }

  private record(fields: Omit<Delivery, 'seq' | 'time'>): void {
    this.log.push({ ...fields, seq: ++this.seq, time: Date.now() });
    if (this.log.length > KEEP) this.log.shift();
  }
}

function safeHeader(jwt: string): { kid?: string | undefined } {
  try {
    return { kid: decodeProtectedHeader(jwt).kid };
  } catch {
    return {};
  }
}
