/**
 * The access control of one server, shared by every binding so a caller has one identity and one
 * quota whichever binding it uses: authentication and the rate limit per request (`admit`, before
 * anything is parsed or looked up, spec §13.1), then, around the operations (`wrap`), skill
 * requirements, the extended card's authentication, message limits, and concurrent streams.
 */
import { A2AError } from '../../core/errors.js';
import type { OperationName, StreamingOperationName } from '../../core/operations.js';
import type { SendMessageRequest } from '../../core/schemas/index.js';
import type { A2AService, StreamItem } from '../../core/service.js';
import type { CallContext } from '../../core/call-context.js';
import type { SecurityDeclarations } from '../auth/card-authenticator.js';
import {
  createServerAuthentication,
  type AuthOptions,
  type ServerAuthentication,
} from '../auth/options.js';
import {
  isAuthFailure,
  type AuthBinding,
  type AuthFailure,
  type AuthRequest,
} from '../auth/types.js';
import {
  applyMessageLimits,
  capHistory,
  DEFAULT_LIMITS,
  type LimitOptions,
} from './message-limits.js';
import { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';

/** Options of {@link AccessControl}. */
export interface AccessControlOptions {
  readonly auth?: AuthOptions | undefined;
  readonly limits?: LimitOptions | undefined;
}

/** A refused request: the error to answer with and the HTTP headers that go with it. */
export interface Refusal {
  readonly error: A2AError;
  readonly headers: Readonly<Record<string, string>>;
}

interface CallInfo {
  readonly binding: AuthBinding;
  /** The client's IP address, when known. */
  readonly address?: string | undefined;
  /** Whose quota the call uses: `principal:<id>` or `ip:<address>`. */
  readonly key: string;
  refusal?: Refusal;
}

/** Authentication and limits of one server (see the module comment). */
export class AccessControl {
  private readonly authentication: ServerAuthentication | undefined;
  private readonly rate: RateLimiter | undefined;
  private readonly streams: ConcurrencyLimiter | undefined;
  private readonly streamsPerAddress: ConcurrencyLimiter | undefined;
  private readonly calls = new WeakMap<CallContext, CallInfo>();
  private readonly maxPartsPerMessage: number;
  private readonly maxMessageBytes: number;
  private readonly maxHistoryLength: number;
  /** No authentication and no per-caller limits: admission has nothing to do. */
  readonly open: boolean;

  constructor(card: SecurityDeclarations, options: AccessControlOptions = {}) {
    this.authentication = createServerAuthentication(card, options.auth);
    const limits = options.limits ?? {};
    const rateLimit = limits.rateLimit ?? DEFAULT_LIMITS.rateLimit;
    this.rate = rateLimit === false ? undefined : new RateLimiter(rateLimit);
    const streams = limits.maxConcurrentStreams ?? DEFAULT_LIMITS.maxConcurrentStreams;
    this.streams = streams === false ? undefined : new ConcurrencyLimiter(streams);
    const perAddress = limits.maxStreamsPerAddress ?? DEFAULT_LIMITS.maxStreamsPerAddress;
    this.streamsPerAddress = perAddress === false ? undefined : new ConcurrencyLimiter(perAddress);
    this.maxPartsPerMessage = limits.maxPartsPerMessage ?? DEFAULT_LIMITS.maxPartsPerMessage;
    this.maxMessageBytes = limits.maxMessageBytes ?? DEFAULT_LIMITS.maxMessageBytes;
    this.maxHistoryLength = limits.maxHistoryLength ?? DEFAULT_LIMITS.maxHistoryLength;
    this.open = !this.authentication && !this.rate && !this.streams && !this.streamsPerAddress;
  }

  /**
   * Fetches what authentication needs before the first request (a JWT issuer's metadata and
   * keys). Resolves to one message per scheme whose issuer could not be reached: its requests are
   * answered 503 UNAVAILABLE until it can. serve() logs them as a start-up warning.
   */
  async warmUp(): Promise<string[]> {
    return (await this.authentication?.warmUp?.()) ?? [];
  }

  /**
   * Authenticates one request and takes a token from its caller's bucket; on success the
   * principal is in `call.principal`. Returns the refusal (401/403/429) instead of throwing.
   */
  async admit(request: AuthRequest, call: CallContext): Promise<Refusal | undefined> {
    if (this.open) return undefined; // nothing to check: the common case of a public agent
    const outcome = await this.authentication?.authenticate(request);
    if (isAuthFailure(outcome)) return authRefusal(outcome);
    if (outcome !== undefined) call.principal = outcome;
    const key =
      outcome !== undefined
        ? `principal:${outcome.id}`
        : `ip:${request.remoteAddress ?? 'unknown'}`;
    this.calls.set(call, { binding: request.binding, key, address: request.remoteAddress });
    const decision = this.rate?.take(key);
    if (decision !== undefined && !decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      const message = `${this.rate?.describe() ?? 'rate limit exceeded'}: retry in ${seconds} s`;
      const error = new A2AError('RATE_LIMITED', message);
      return { error, headers: { 'retry-after': String(seconds) } };
    }
    return undefined;
  }

  /**
   * The refusal raised inside {@link wrap} for `call`, if any: the HTTP layer answers with its
   * status and headers (`WWW-Authenticate`, `Retry-After`), also on JSON-RPC.
   */
  lateRefusal(call: CallContext): Refusal | undefined {
    return this.calls.get(call)?.refusal;
  }

  /** `service` with the per-operation checks; every other member is passed through. */
  wrap(service: A2AService): A2AService {
    const invoke = async (name: OperationName, params: unknown, call: CallContext) => {
      const checked = this.before(name, params, call);
      const result = await service.invoke(name, checked, call);
      if (
        name === 'GetExtendedAgentCard' &&
        call.principal === undefined &&
        this.authentication !== undefined
      ) {
        // spec §3.1.11 / checklist [217]: only after the capability and configuration checks.
        throw this.refuse(call, {
          failure: 'UNAUTHENTICATED',
          message:
            'GetExtendedAgentCard requires an authenticated caller: send the credentials the public card asks for',
          challenges: [],
        });
      }
      return capHistory(result, this.maxHistoryLength, name);
    };
    const stream = async (name: StreamingOperationName, params: unknown, call: CallContext) => {
      const checked = this.before(name, params, call);
      const release = this.acquireStream(call);
      try {
        const source = await service.stream(name, checked, call);
        return releasing(source, release, this.maxHistoryLength);
      } catch (error) {
        release();
        throw error;
      }
    };
    return new Proxy(service, {
      get(target, property) {
        if (property === 'invoke') return invoke;
        if (property === 'stream') return stream;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
  }

  private before(name: OperationName, params: unknown, call: CallContext): unknown {
    const checked = applyMessageLimits(name, params, {
      maxPartsPerMessage: this.maxPartsPerMessage,
      maxMessageBytes: this.maxMessageBytes,
      maxHistoryLength: this.maxHistoryLength,
    });
    if ((name === 'SendMessage' || name === 'SendStreamingMessage') && this.authentication) {
      const binding = this.calls.get(call)?.binding ?? 'HTTP+JSON';
      const refused = this.authentication.authorizeMessage(
        checked as SendMessageRequest,
        call.principal,
        binding,
      );
      if (refused !== undefined) throw this.refuse(call, refused);
    }
    return checked;
  }

  private acquireStream(call: CallContext): () => void {
    const info = this.calls.get(call);
    const address = info?.address;
    let releaseAddress: (() => void) | undefined;
    if (this.streamsPerAddress !== undefined && address !== undefined) {
      releaseAddress = this.streamsPerAddress.acquire(address);
      if (releaseAddress === undefined) {
        throw this.tooManyStreams(
          call,
          `too many open streams from ${address}: at most ${this.streamsPerAddress.max} at once per client address; close one first`,
        );
      }
    }
    if (this.streams === undefined) return releaseAddress ?? (() => undefined);
    const release = this.streams.acquire(info?.key ?? keyOf(call));
    if (release === undefined) {
      releaseAddress?.();
      throw this.tooManyStreams(
        call,
        `too many open streams: at most ${this.streams.max} at once per caller; close one first`,
      );
    }
    return () => {
      release();
      releaseAddress?.();
    };
  }

  private tooManyStreams(call: CallContext, message: string): A2AError {
    const error = new A2AError('RATE_LIMITED', message);
    this.record(call, { error, headers: { 'retry-after': '1' } });
    return error;
  }

  private refuse(call: CallContext, failure: AuthFailure): A2AError {
    const refusal = authRefusal(failure);
    this.record(call, refusal);
    return refusal.error;
  }

  private record(call: CallContext, refusal: Refusal): void {
    const info = this.calls.get(call) ?? { binding: 'HTTP+JSON' as const, key: keyOf(call) };
    info.refusal = refusal;
    this.calls.set(call, info);
  }
}

/** The A2AError and `WWW-Authenticate` / `Retry-After` headers of an authentication refusal. */
export function authRefusal(failure: AuthFailure): Refusal {
  const error = new A2AError(failure.failure, failure.message);
  const headers: Record<string, string> =
    failure.challenges.length > 0 ? { 'www-authenticate': failure.challenges.join(', ') } : {};
  if (failure.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(failure.retryAfterSeconds);
  }
  return { error, headers };
}

function keyOf(call: CallContext): string {
  return call.principal !== undefined ? `principal:${call.principal.id}` : 'ip:unknown';
}

/**
 * `source` with its stream slot released when it ends, fails or is stopped (at once, even while
 * an event is awaited, so a client that goes away frees its slot), and task history capped.
 */
function releasing(
  source: AsyncIterable<StreamItem>,
  release: () => void,
  maxHistory: number,
): AsyncIterable<StreamItem> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<StreamItem> {
      const inner = source[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const result = await inner.next();
            if (result.done === true) {
              release();
              return result;
            }
            const event = capHistory(result.value.event, maxHistory);
            return event === result.value.event
              ? result
              : { done: false, value: { ...result.value, event } };
          } catch (error) {
            release();
            throw error;
          }
        },
        async return(value?: unknown) {
          release();
          const done = await inner.return?.(value);
          return done ?? { done: true, value: undefined };
        },
      };
    },
  };
}
