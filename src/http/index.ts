/** The runtime-neutral HTTP layer: the A2A handler, its fetch adapter, SSE and card helpers. */
export { cardInterfaces, createA2AHandler, DEFAULT_MAX_BODY_BYTES } from './handler.js';
export type { A2AHandlerOptions } from './handler.js';
export { toFetchHandler } from './fetch.js';
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
export type { HttpHandler, HttpRequest, HttpResponse } from './types.js';
