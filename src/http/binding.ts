/**
 * What the HTTP router needs from a protocol binding (JSON-RPC, HTTP+JSON, or one of your own):
 * where it answers, how it answers a request, and how it renders a refusal. The router iterates
 * a list of these, and the card's interfaces come from the same list (spec §8.3.1: in order).
 */
import type { CallContext } from '../core/call-context.js';
import type { A2AError, InternalErrorReporter } from '../core/errors.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import type { OperationName } from '../core/operations.js';
import type { AgentInterface } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import type { HttpRequest, HttpResponse } from './types.js';

/** One binding served over HTTP. */
export interface HttpBinding {
  /** The card's `protocolBinding` string (`JSONRPC`, `HTTP+JSON`, …). */
  readonly protocolBinding: string;
  /** Where it answers (`/a2a/jsonrpc`): a leading slash, no trailing one; the card URL's path. */
  readonly path: string;
  /** `exact`: the path itself (with or without a trailing slash); `prefix`: also everything under it. */
  readonly match: 'exact' | 'prefix';
  /**
   * Older protocol versions it also serves at the same URL (`['0.3']`): the card lists the
   * binding once more for each, after every current-version entry (1.0 first).
   */
  readonly alsoVersions?: readonly string[] | undefined;
  /** The only methods it takes, when it has a fixed set: others get 405 with `Allow`. */
  readonly methods?: readonly string[] | undefined;
  /**
   * Answers one request. `rest` is the path after {@link path} (`''` or starting with `/`),
   * `query` the raw query string. Must not throw: errors are answered in the binding's shape,
   * with the error as the response's `error` (the router logs and traces refusals from it).
   */
  handle(req: HttpRequest, rest: string, query: string, ctx: BindingContext): Promise<HttpResponse>;
  /**
   * The answer to a request refused before the binding saw it (authentication, rate limit,
   * cross-site): the error in this binding's shape with the catalog's HTTP status and
   * `error.headers`.
   */
  refuse(req: HttpRequest, error: A2AError, ctx: BindingContext): HttpResponse;
}

/** What the router passes to a binding for one request. */
export interface BindingContext {
  /** The service with the operation middleware (access control first). */
  readonly service: A2AService;
  readonly keepAliveMs: number;
  readonly maxBodyBytes: number;
  readonly onError: InternalErrorReporter;
  /** Tenant-free context of the call (binding, extensions, signal, principal); bindings add tenant. */
  readonly call: CallContext;
  /** The VersionNotSupported error of this request, if its A2A-Version is not served. */
  readonly versionError: A2AError | undefined;
  /**
   * Set by the binding once it knows the operation (before validating its params), so a
   * request refused after that is logged and traced under its operation.
   */
  operation?: OperationName | undefined;
}

/**
 * The card entries of `bindings` for `baseUrl`, in their order (spec §8.3.1), then the 1.0
 * entries of `extra` (interfaces served elsewhere, e.g. gRPC), then the older-version entries of
 * the bindings, then those of `extra` (so a 0.3 card's preferred interface stays the first 0.3
 * HTTP one).
 */
export function bindingInterfaces(
  baseUrl: string,
  bindings: readonly HttpBinding[],
  extra: readonly AgentInterface[] = [],
): AgentInterface[] {
  const entry = (binding: HttpBinding, protocolVersion: string): AgentInterface => ({
    url: baseUrl + binding.path,
    protocolBinding: binding.protocolBinding,
    protocolVersion,
  });
  const current = (i: AgentInterface) => i.protocolVersion === PROTOCOL_VERSION;
  return [
    ...bindings.map((binding) => entry(binding, PROTOCOL_VERSION)),
    ...extra.filter(current),
    ...bindings.flatMap((binding) => (binding.alsoVersions ?? []).map((v) => entry(binding, v))),
    ...extra.filter((i) => !current(i)),
  ];
}

/** `/a2a/rest/` → `/a2a/rest`; always with a leading slash. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
