/**
 * The webhook side of push notifications (spec §4.3.3, §13.2): `createPushReceiver()` checks one
 * incoming delivery (signature against the agent's published keys, body hash, freshness, the
 * config token, replay of `jti`, the body against the StreamResponse schema and its task id
 * against the signed one) and returns the event. Runtime-neutral: use it in any HTTP framework;
 * `receivePushNotifications()` (receive-server.ts) wraps it in a node:http server.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { StreamResponse } from '../core/schemas/index.js';
import { CARD_SIGNING_ALGORITHMS } from '../security/signing-keys.js';
import {
  KeysUnavailable,
  PushKeys,
  type PushKeySource,
  type PushKeysOptions,
} from './receiver-keys.js';
import { MemoryReplayCache, type ReplayCache } from './replay-cache.js';
import {
  PUSH_JWT_TYPE,
  PUSH_SIGNATURE_HEADER,
  PUSH_TOKEN_HEADER,
  sha256Base64url,
  type PushClaims,
} from './signing.js';

/** Why a delivery was refused. */
export type PushRejectReason =
  | 'MISSING_SIGNATURE'
  | 'BAD_SIGNATURE'
  | 'UNKNOWN_KEY'
  | 'KEYS_UNAVAILABLE'
  | 'EXPIRED'
  | 'BODY_MISMATCH'
  | 'BAD_TOKEN'
  | 'REPLAYED'
  | 'BAD_BODY'
  | 'TASK_MISMATCH'
  | 'UNEXPECTED_TASK';

/** A refused delivery; `status` is the HTTP status a webhook should answer with. */
export class PushRejected extends Error {
  override readonly name = 'PushRejected';
  constructor(
    readonly reason: PushRejectReason,
    message: string,
  ) {
    super(message);
  }

  /** 503 when the keys could not be fetched (the agent retries), 400 for a bad body, else 401. */
  get status(): number {
    if (this.reason === 'KEYS_UNAVAILABLE') return 503;
    if (this.reason === 'BAD_BODY' || this.reason === 'TASK_MISMATCH') return 400;
    if (this.reason === 'REPLAYED') return 409;
    if (this.reason === 'UNEXPECTED_TASK') return 403;
    return 401;
  }
}

/** Options of {@link createPushReceiver}. */
export interface PushReceiverOptions extends PushKeysOptions {
  /** The agent's push JWKS URL (`…/.well-known/a2a-push-jwks.json`) or its keys. */
  readonly jwks?: PushKeySource | undefined;
  /** Expected `iss` (the agent's URL). */
  readonly issuer?: string | undefined;
  /** Expected `aud` (this webhook's URL as registered in the config). */
  readonly audience?: string | undefined;
  /** The config token to require in `X-A2A-Notification-Token`, or a lookup by task id. */
  readonly token?:
    string | ((taskId: string) => string | undefined | Promise<string | undefined>) | undefined;
  /** Oldest acceptable signature (`iat`); default 300 s. */
  readonly maxAgeSeconds?: number | undefined;
  /** Clock skew tolerated on `iat`/`exp`; default 5 s. */
  readonly clockToleranceSeconds?: number | undefined;
  /** Seen `jti` values; default an in-memory cache (one process). */
  readonly replayCache?: ReplayCache | undefined;
  /** Accept only tasks this webhook expects (spec §4.3.3); default any. */
  readonly acceptTask?: ((taskId: string) => boolean | Promise<boolean>) | undefined;
  /**
   * Checks the delivery as an HTTP message too (did:wba request signatures:
   * `didPushVerifier()` of `a2a-kit/did`); throws {@link PushRejected} to refuse it.
   */
  readonly requestVerifier?: PushRequestVerifier | undefined;
  /** Accept deliveries with neither a signature nor a token to check (debugging only). */
  readonly allowUnauthenticated?: boolean | undefined;
}

/** One incoming request: its headers (any common shape) and exact body. */
export interface PushRequestInput {
  readonly headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: string | Uint8Array;
  /** The URL the delivery was sent to (the config's webhook URL); needed by `requestVerifier`. */
  readonly url?: string | undefined;
}

/** Checks a delivery as an HTTP message; throws {@link PushRejected} to refuse it. */
export type PushRequestVerifier = (request: {
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: Uint8Array;
}) => Promise<void>;

/** A verified delivery. `claims` is absent when the receiver checks no signature. */
export interface VerifiedPush {
  readonly event: StreamResponse;
  readonly taskId: string;
  readonly claims?: PushClaims | undefined;
}

/** Verifies incoming push deliveries. */
export interface PushReceiver {
  /** The event of a valid delivery; throws {@link PushRejected} saying why otherwise. */
  verify(request: PushRequestInput): Promise<VerifiedPush>;
}

/** A receiver checking deliveries against the agent's keys and the config's token. */
export function createPushReceiver(options: PushReceiverOptions): PushReceiver {
  const keys = options.jwks === undefined ? undefined : new PushKeys(options.jwks, options);
  const checksRequest = options.requestVerifier !== undefined;
  if (!keys && options.token === undefined && !checksRequest && !options.allowUnauthenticated) {
    throw new TypeError(
      'createPushReceiver needs jwks, token or requestVerifier (or allowUnauthenticated: true)',
    );
  }
  const replays = options.replayCache ?? new MemoryReplayCache();
  const maxAge = options.maxAgeSeconds ?? 300;

  async function verifySignature(jwt: string, body: Uint8Array): Promise<PushClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(jwt, (h) => (keys as PushKeys).key(h.kid, h.alg), {
        algorithms: [...CARD_SIGNING_ALGORITHMS],
        typ: PUSH_JWT_TYPE,
        maxTokenAge: maxAge,
        clockTolerance: options.clockToleranceSeconds ?? 5,
        requiredClaims: ['iat', 'exp', 'jti'],
        ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
        ...(options.audience !== undefined ? { audience: options.audience } : {}),
      }));
    } catch (error) {
      throw signatureError(error);
    }
    const { taskId, sha256 } = payload as { taskId?: unknown; sha256?: unknown };
    if (typeof taskId !== 'string' || typeof sha256 !== 'string') {
      throw new PushRejected('BAD_SIGNATURE', 'the signature lacks the taskId or sha256 claim');
    }
    if ((await sha256Base64url(body)) !== sha256) {
      throw new PushRejected('BODY_MISMATCH', 'the body is not the one that was signed');
    }
    return { ...payload, taskId, sha256 } as PushClaims;
  }

  return {
    async verify(request) {
      const bytes = typeof request.body === 'string' ? utf8(request.body) : request.body;
      const signature = header(request.headers, PUSH_SIGNATURE_HEADER);
      let claims: PushClaims | undefined;
      if (keys) {
        if (!signature) throw new PushRejected('MISSING_SIGNATURE', 'no signature header');
        claims = await verifySignature(signature, bytes);
      }
      if (options.requestVerifier) {
        const url = request.url ?? options.audience;
        if (url === undefined) {
          throw new TypeError('requestVerifier needs the delivery URL: pass url or audience');
        }
        const get = (name: string) => header(request.headers, name) ?? null;
        await options.requestVerifier({ url, headers: { get }, body: bytes });
      }
      const { event, taskId } = parseBody(bytes);
      if (claims && claims.taskId !== taskId) {
        throw new PushRejected(
          'TASK_MISMATCH',
          'the body is about another task than the signature',
        );
      }
      const expected =
        typeof options.token === 'function' ? await options.token(taskId) : options.token;
      if (options.token !== undefined) {
        const sent = header(request.headers, PUSH_TOKEN_HEADER);
        if (expected === undefined || sent === undefined || !sameText(sent, expected)) {
          throw new PushRejected('BAD_TOKEN', 'the notification token is missing or wrong');
        }
      }
      if (options.acceptTask && !(await options.acceptTask(taskId))) {
        throw new PushRejected('UNEXPECTED_TASK', `task ${taskId} is not one this webhook expects`);
      }
      if (claims && !(await replays.add(claims.jti, (claims.exp + 60) * 1000))) {
        throw new PushRejected('REPLAYED', 'this notification was already received');
      }
      return { event, taskId, claims };
    },
  };
}

function signatureError(error: unknown): PushRejected {
  if (error instanceof PushRejected) return error;
  if (error instanceof KeysUnavailable) return new PushRejected('KEYS_UNAVAILABLE', error.message);
  if (error instanceof joseErrors.JWTExpired) {
    return new PushRejected('EXPIRED', `the signature is too old or expired: ${error.message}`);
  }
  if (error instanceof joseErrors.JOSEError) {
    return new PushRejected('BAD_SIGNATURE', `the signature is not valid: ${error.message}`);
  }
  const why = error instanceof Error ? error.message : String(error);
  return new PushRejected('UNKNOWN_KEY', `no key to check the signature: ${why}`);
}

function parseBody(bytes: Uint8Array): { event: StreamResponse; taskId: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new PushRejected('BAD_BODY', 'the body is not UTF-8 JSON');
  }
  const parsed = StreamResponse.safeParse(json);
  if (!parsed.success) throw new PushRejected('BAD_BODY', 'the body is not a StreamResponse');
  const event = parsed.data as StreamResponse;
  const taskId =
    'task' in event
      ? event.task.id
      : 'statusUpdate' in event
        ? event.statusUpdate.taskId
        : 'artifactUpdate' in event
          ? event.artifactUpdate.taskId
          : (event.message.taskId ?? '');
  if (!taskId) throw new PushRejected('BAD_BODY', 'the body names no task');
  return { event, taskId };
}

function header(headers: PushRequestInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return undefined;
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Compares in time independent of where the texts differ. */
function sameText(a: string, b: string): boolean {
  const x = utf8(a);
  const y = utf8(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
