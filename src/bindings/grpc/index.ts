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
// A2A 0.3 (`a2a.v1.A2AService`, docs/interop.md): served by serveGrpc with compat ['0.3'].
export { Grpc03Transport, grpc03Transport } from './v03-client.js';
export { createGrpcService03 } from './v03-server.js';
export { V03_SERVICE_NAME } from './v03-proto.js';
