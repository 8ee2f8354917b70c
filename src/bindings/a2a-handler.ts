/**
 * Where the HTTP server is assembled: the bindings `createA2AHandler` serves, in card order
 * (spec §8.3.1: JSON-RPC first, then HTTP+JSON). A new HTTP binding is its folder plus one line
 * in {@link httpBindings}. gRPC listens on its own port (`bindings/grpc/serve.ts`).
 */
import type { AgentInterface } from '../core/schemas/index.js';
import type { A2AService, CompatVersion } from '../core/service.js';
import { bindingInterfaces, type HttpBinding } from '../http/binding.js';
import { createHttpHandler, type HttpHandlerOptions } from '../http/handler.js';
import type { RoutedHttpHandler } from '../http/types.js';
import { jsonRpcBinding } from './jsonrpc/server.js';
import { restBinding } from './rest/server.js';
import { jsonRpcWithV03, restWithV03, V03_CARD } from './v03/bindings.js';

/** Options of {@link createA2AHandler}. */
export interface A2AHandlerOptions extends HttpHandlerOptions {
  /** Path of the JSON-RPC endpoint (default `/a2a/jsonrpc`). */
  jsonrpcPath?: string | undefined;
  /** Base path of the HTTP+JSON routes (default `/a2a/rest`). */
  restPath?: string | undefined;
  /** The HTTP bindings to serve instead of the default JSON-RPC and HTTP+JSON, in card order. */
  bindings?: readonly HttpBinding[] | undefined;
  /**
   * Older protocol versions to serve next to 1.0 on the default bindings: `['0.3']` serves A2A
   * 0.3 JSON-RPC and HTTP+JSON at the same URLs (requests without `A2A-Version`), lists 0.3
   * entries in the card after the 1.0 ones, and answers card requests without `A2A-Version`
   * with the hybrid card (docs/interop.md). Default: the service's own (A2AServer's `compat`).
   */
  compat?: readonly CompatVersion[] | undefined;
}

/** The default HTTP bindings, in card order. */
export function httpBindings(
  options: Pick<A2AHandlerOptions, 'jsonrpcPath' | 'restPath' | 'compat'> = {},
): HttpBinding[] {
  const jsonrpc = jsonRpcBinding({ path: options.jsonrpcPath });
  const rest = restBinding({ path: options.restPath });
  if (options.compat?.includes('0.3')) return [jsonRpcWithV03(jsonrpc), restWithV03(rest)];
  return [jsonrpc, rest];
}

/** Creates the request handler of `service` (an A2AServer): the card, JSON-RPC and HTTP+JSON. */
export function createA2AHandler(
  service: A2AService,
  options: A2AHandlerOptions = {},
): RoutedHttpHandler {
  const compat = options.compat ?? service.compat;
  const versionedCard =
    options.versionedCard ??
    (compat?.includes('0.3') && options.bindings === undefined ? V03_CARD : undefined);
  return createHttpHandler(service, options.bindings ?? httpBindings({ ...options, compat }), {
    ...options,
    versionedCard,
  });
}

/**
 * The interfaces the card lists for `baseUrl`, in preference order (spec §8.3.1): the HTTP
 * bindings, then `extraInterfaces`, each with its absolute URL. `compat` is the handler's (pass
 * the service's when the handler takes it from there).
 */
export function cardInterfaces(
  baseUrl: string,
  options: Pick<
    A2AHandlerOptions,
    'jsonrpcPath' | 'restPath' | 'bindings' | 'extraInterfaces' | 'compat'
  > = {},
): AgentInterface[] {
  return bindingInterfaces(
    baseUrl,
    options.bindings ?? httpBindings(options),
    options.extraInterfaces,
  );
}
