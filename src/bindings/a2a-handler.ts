/**
 * Where the HTTP server is assembled: the bindings `createA2AHandler` serves, in card order
 * (spec §8.3.1: JSON-RPC first, then HTTP+JSON). A new HTTP binding is its folder plus one line
 * in {@link httpBindings}. gRPC listens on its own port (`bindings/grpc/serve.ts`).
 */
import type { AgentInterface } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import { bindingInterfaces, type HttpBinding } from '../http/binding.js';
import { createHttpHandler, type HttpHandlerOptions } from '../http/handler.js';
import type { RoutedHttpHandler } from '../http/types.js';
import { jsonRpcBinding } from './jsonrpc/server.js';
import { restBinding } from './rest/server.js';

/** Options of {@link createA2AHandler}. */
export interface A2AHandlerOptions extends HttpHandlerOptions {
  /** Path of the JSON-RPC endpoint (default `/a2a/jsonrpc`). */
  jsonrpcPath?: string | undefined;
  /** Base path of the HTTP+JSON routes (default `/a2a/rest`). */
  restPath?: string | undefined;
  /** The HTTP bindings to serve instead of the default JSON-RPC and HTTP+JSON, in card order. */
  bindings?: readonly HttpBinding[] | undefined;
}

/** The default HTTP bindings, in card order. */
export function httpBindings(
  options: Pick<A2AHandlerOptions, 'jsonrpcPath' | 'restPath'> = {},
): HttpBinding[] {
  return [jsonRpcBinding({ path: options.jsonrpcPath }), restBinding({ path: options.restPath })];
}

/** Creates the request handler of `service` (an A2AServer): the card, JSON-RPC and HTTP+JSON. */
export function createA2AHandler(
  service: A2AService,
  options: A2AHandlerOptions = {},
): RoutedHttpHandler {
  return createHttpHandler(service, options.bindings ?? httpBindings(options), options);
}

/**
 * The interfaces the card lists for `baseUrl`, in preference order (spec §8.3.1): the HTTP
 * bindings, then `extraInterfaces`, each with its absolute URL.
 */
export function cardInterfaces(
  baseUrl: string,
  options: Pick<
    A2AHandlerOptions,
    'jsonrpcPath' | 'restPath' | 'bindings' | 'extraInterfaces'
  > = {},
): AgentInterface[] {
  return [
    ...bindingInterfaces(baseUrl, options.bindings ?? httpBindings(options)),
    ...(options.extraInterfaces ?? []),
  ];
}
