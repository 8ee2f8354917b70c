/** `a2a-kit/grpc`: the gRPC binding (spec §10) on @grpc/grpc-js — server, client transport, codecs. */
export { GrpcTransport, grpcTarget, grpcTransport } from './client.js';
export type { GrpcTransportOptions } from './client.js';
export type { ClientTlsPem } from '../../transport/client-tls.js';
export { createGrpcService, serviceError } from './server.js';
export type { GrpcCallInfo, GrpcService, GrpcServiceOptions } from './server.js';
export { serveGrpc } from './serve.js';
export type { GrpcServerHandle, ServeGrpcOptions } from './serve.js';
export { decodeMessage, encodeMessage, fromProto, toProto } from './convert.js';
export { decodeStatus, encodeStatus } from './status.js';
export type { StatusDetails } from './status.js';
export { GRPC_BINDING, SERVICE_NAME } from './wire.js';
