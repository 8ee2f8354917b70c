/** `a2a-kit/node`: serve an agent over node:http (the only node:http importer besides push/). */
export { serve } from './serve.js';
export { INSPECTOR_PATH } from './serve.js';
export type { ServeInspectorOptions, ServeOptions, ServeResult } from './serve.js';
export { GrpcListenError } from './grpc.js';
export type { GrpcListenOptions } from './grpc.js';
export { toNodeListener } from './listener.js';
export { serveHandler } from './serve-handler.js';
export type { HandlerServer } from './serve-handler.js';
export type { NodeListener, NodeListenerOptions } from './listener.js';
export type { Pem, TlsOptions } from './tls.js';
export { clientTlsPem, tlsClientFetch, type ClientTlsFiles } from './tls-fetch.js';
export { DEFAULT_CONNECTION_LIMITS } from './connections.js';
export type { ConnectionLimits } from './connections.js';
export { DEFAULT_JWKS_PATH } from './signed-card.js';
export type { SignCardOptions } from './signed-card.js';
export type { ServeDidOptions } from './serve-did.js';
