/** The runtime-neutral HTTP layer: the A2A handler, its fetch adapter, SSE and card helpers. */
export { createHttpHandler, DEFAULT_MAX_BODY_BYTES } from './handler.js';
export type { HttpHandlerOptions } from './handler.js';
export { bindingInterfaces } from './binding.js';
export type { BindingContext, HttpBinding } from './binding.js';
export { withCors, CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from './cors.js';
export type { CorsOptions } from './cors.js';
export { withMiddleware, isStreamingOperation } from '../core/middleware.js';
export type { OperationMiddleware } from '../core/middleware.js';
export type { Refusal, RefusalListener } from '../core/refusal.js';
// The entry is the face of the folder: it also offers the default bindings, assembled in
// bindings/ (http/ itself never imports a binding).
export { cardInterfaces, createA2AHandler, httpBindings } from '../bindings/a2a-handler.js';
export type { A2AHandlerOptions } from '../bindings/a2a-handler.js';
export { jsonRpcBinding } from '../bindings/jsonrpc/server.js';
export type { JsonRpcBindingOptions } from '../bindings/jsonrpc/server.js';
export { restBinding } from '../bindings/rest/server.js';
export type { RestBindingOptions } from '../bindings/rest/server.js';
export { serveFetchRequest, toFetchHandler } from './fetch.js';
export type { FetchHandler, FetchHandlerOptions } from './fetch.js';
export { AGENT_CARD_PATH, createAgentCardEndpoint } from './agent-card.js';
export type { AgentCardEndpointOptions } from './agent-card.js';
export { encodeSse, sseFrame, KEEP_ALIVE_FRAME, SSE_HEADERS } from './sse-encode.js';
export type { SseEncodeOptions } from './sse-encode.js';
export { statusJson } from './errors.js';
export { toA2AError } from '../core/errors.js';
export type { InternalErrorReporter } from '../core/errors.js';
export type { HttpHeaders } from '../core/call-context.js';
export type { A2AService, StreamItem } from '../core/service.js';
export { SUPPORTED_VERSIONS } from './service-params.js';
export type { HttpHandler, HttpRequest, HttpResponse, RoutedHttpHandler } from './types.js';
export { forwardedLocation, joinPaths } from './forwarded.js';
export type { ForwardedLocation, LocationInput } from './forwarded.js';
