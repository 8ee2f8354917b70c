/**
 * The access control of one server, shared by every binding so a caller has one identity and one
 * quota whichever binding it uses: authentication and the rate limit per request (`admit`, before
 * anything is parsed or looked up, spec §13.1), then, as one operation middleware
 * (`middleware`), skill requirements, the extended card's authentication, message limits, and
 * concurrent streams. Every refusal is an A2AError carrying its HTTP headers; the binding renders it.
 */
import { rejected } from '../../core/maybe-async.js';
import { A2AError } from '../../core/errors.js';
import { isStreamingOperation, type OperationMiddleware } from '../../core/middleware.js';
import type { OperationName } from '../../core/operations.js';
import type { SendMessageRequest } from '../../core/schemas/index.js';
import type { StreamItem } from '../../core/service.js';
import { nextReady, type ReadyIterator } from '../../core/ready-iterator.js';
import type { CallContext } from '../../core/call-context.js';
import type { SecurityDeclarations } from '../auth/card-authenticator.js';
import {
  createServerAuthentication,
  type AuthOptions,
  type ServerAuthentication,
} from '../auth/options.js';
import { isAuthFailure, type AuthFailure, type AuthRequest } from '../auth/types.js';
import {
  applyMessageLimits,
  capHistory,
  DEFAULT_LIMITS,
  type LimitOptions,
  type MessageLimits,
} from './message-limits.js';
import { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';

/** Options of {@link AccessControl}. */
export interface AccessControlOptions {
  readonly auth?: AuthOptions | undefined;
  readonly limits?: LimitOptions | undefined;
}

/** Authentication and limits of one server (see the module comment). */
export class AccessControl {
  private readonly authentication: ServerAuthentication | undefined;
  private readonly rate: RateLimiter | undefined;
  private readonly streams: ConcurrencyLimiter | undefined;
  private readonly streamsPerAddress: ConcurrencyLimiter | undefined;
  /** The message limits, one object for every call. */
  private readonly messageLimits: MessageLimits;
  private readonly maxHistoryLength: number;
  /**
   * No authentication and no rate limit: admission (`admit`) has nothing to do. Stream limits do
   * not count: they are checked by the middleware, on streaming operations only.
   */
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
    this.maxHistoryLength = limits.maxHistoryLength ?? DEFAULT_LIMITS.maxHistoryLength;
    this.messageLimits = {
      maxPartsPerMessage: limits.maxPartsPerMessage ?? DEFAULT_LIMITS.maxPartsPerMessage,
      maxMessageBytes: limits.maxMessageBytes ?? DEFAULT_LIMITS.maxMessageBytes,
      maxHistoryLength: this.maxHistoryLength,
    };
    this.open = !this.authentication && !this.rate;
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
  async admit(request: AuthRequest, call: CallContext): Promise<A2AError | undefined> {
    if (this.open) return undefined; // nothing to check: the common case of a public agent
    const outcome = await this.authentication?.authenticate(request);
    if (isAuthFailure(outcome)) return authRefusal(outcome);
    if (outcome !== undefined) call.principal = outcome;
    const decision = this.rate?.take(keyOf(outcome, request.remoteAddress));
    if (decision !== undefined && !decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      const message = `${this.rate?.describe() ?? 'rate limit exceeded'}: retry in ${seconds} s`;
      return new A2AError('RATE_LIMITED', message, { headers: { 'retry-after': String(seconds) } });
    }
    return undefined;
  }

  /**
   * The per-operation checks as one {@link OperationMiddleware}: message limits and skill
   * requirements on the way in, the extended card's authentication, one stream slot per open
   * stream, and history capped on the way out.
   */
  readonly middleware: OperationMiddleware = (name, params, call, next) => {
    if (isStreamingOperation(name)) return this.streamingCall(name, params, call, next);
    // Not async: the result of `next` is mapped in place (one promise and one turn fewer per call).
    let checked: unknown;
    try {
      checked = this.before(name, params, call);
    } catch (error) {
      return rejected(error);
    }
    return next(checked).then((result) => {
      if (
        name === 'GetExtendedAgentCard' &&
        call.principal === undefined &&
        this.authentication !== undefined
      ) {
        // spec §3.1.11 / requirement 217 of test/conformance/requirements.ts: only after the capability and configuration checks.
        throw authRefusal({
          failure: 'UNAUTHENTICATED',
          message:
            'GetExtendedAgentCard requires an authenticated caller: send the credentials the public card asks for',
          challenges: [],
        });
      }
      return capHistory(result, this.maxHistoryLength, name);
    });
  };

  /**
   * A streaming operation: one stream slot while it is open. Not async: the opened stream is
   * mapped in place (one promise and one turn fewer per stream).
   */
  private streamingCall(
    name: OperationName,
    params: unknown,
    call: CallContext,
    next: (params?: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    let release: () => void;
    let opening: Promise<unknown>;
    try {
      const checked = this.before(name, params, call);
      release = this.acquireStream(call);
      try {
        opening = next(checked);
      } catch (error) {
        release();
        throw error;
      }
    } catch (error) {
      return rejected(error);
    }
    return opening.then(
      (source) => releasing(source as AsyncIterable<StreamItem>, release, this.maxHistoryLength),
      (error: unknown) => {
        release();
        throw error;
      },
    );
  }

  private before(name: OperationName, params: unknown, call: CallContext): unknown {
    const checked = applyMessageLimits(name, params, this.messageLimits);
    if ((name === 'SendMessage' || name === 'SendStreamingMessage') && this.authentication) {
      const refused = this.authentication.authorizeMessage(
        checked as SendMessageRequest,
        call.principal,
        call.protocolBinding ?? 'HTTP+JSON',
      );
      if (refused !== undefined) throw authRefusal(refused);
    }
    return checked;
  }

  private acquireStream(call: CallContext): () => void {
    const address = call.remoteAddress;
    let releaseAddress: (() => void) | undefined;
    if (this.streamsPerAddress !== undefined && address !== undefined) {
      releaseAddress = this.streamsPerAddress.acquire(address);
      if (releaseAddress === undefined) {
        throw tooManyStreams(
          `too many open streams from ${address}: at most ${this.streamsPerAddress.max} at once per client address; close one first`,
        );
      }
    }
    if (this.streams === undefined) return releaseAddress ?? (() => undefined);
    const release = this.streams.acquire(keyOf(call.principal, address));
    if (release === undefined) {
      releaseAddress?.();
      throw tooManyStreams(
        `too many open streams: at most ${this.streams.max} at once per caller; close one first`,
      );
    }
    return () => {
      release();
      releaseAddress?.();
    };
  }
}

function tooManyStreams(message: string): A2AError {
  return new A2AError('RATE_LIMITED', message, { headers: { 'retry-after': '1' } });
}

/** The A2AError of an authentication refusal, with its `WWW-Authenticate` / `Retry-After` headers. */
export function authRefusal(failure: AuthFailure): A2AError {
  const headers: Record<string, string> =
    failure.challenges.length > 0 ? { 'www-authenticate': failure.challenges.join(', ') } : {};
  if (failure.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(failure.retryAfterSeconds);
  }
  return new A2AError(failure.failure, failure.message, { headers });
}

/** Whose quota a call uses: `principal:<id>`, else `ip:<address>`. */
function keyOf(
  principal: { readonly id: string } | undefined,
  address: string | undefined,
): string {
  return principal !== undefined ? `principal:${principal.id}` : `ip:${address ?? 'unknown'}`;
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
    [Symbol.asyncIterator](): ReadyIterator<StreamItem> {
      const inner = source[Symbol.asyncIterator]();
      const shown = (result: IteratorResult<StreamItem>): IteratorResult<StreamItem> => {
        if (result.done === true) {
          release();
          return result;
        }
        const event = capHistory(result.value.event, maxHistory);
        return event === result.value.event
          ? result
          : { done: false, value: { ...result.value, event } };
      };
      return {
        // The events the source has ready, without a promise (core/ready-iterator.ts).
        nextReady() {
          try {
            const result = nextReady(inner);
            return result === undefined ? undefined : shown(result);
          } catch (error) {
            release();
            throw error;
          }
        },
        async next() {
          try {
            return shown(await inner.next());
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
