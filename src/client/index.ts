/** `a2a-kit/client`: call any A2A 1.0 agent. */
export { A2AClient, type A2AClientOptions, type TransportFactory } from './client.js';
export { DEFAULT_BINDINGS, DEFAULT_TRANSPORTS } from './default-transports.js';
export {
  IncompatibleAgentError,
  isTransportError,
  TransportError,
  type TransportErrorCode,
  type TransportErrorOptions,
} from '../transport/errors.js';
export { A2AError, isA2AError, type A2AErrorCode, type FieldViolation } from '../core/errors.js';
export { MissingDependencyError, type MissingDependency } from '../core/missing-dependency.js';
export {
  AgentCardResolver,
  cardUrl,
  parseAgentCard,
  sharedCardResolver,
  WELL_KNOWN_CARD_PATH,
  type CardResolverOptions,
  type ResolveCardOptions,
} from './card-resolver.js';
export { CardCache, type CachedCard } from './card-cache.js';
export {
  type CallEnd,
  type CallOutcome,
  type ClientCall,
  type Interceptor,
} from './interceptors.js';
export {
  apiKey,
  bearerToken,
  credentialsForCard,
  describeSecuritySchemes,
  httpAuth,
  type ApiKeyLocation,
  type AvailableCredentials,
  type Secret,
} from './credentials.js';
export { DEFAULT_RETRY, type RetryEnvironment, type RetryOptions } from './retry.js';
export { DEFAULT_RESUME, type ResumeNotice } from './stream-resume.js';
export {
  BaseTransport,
  type CallOptions,
  type ClientTransport,
  type EventStream,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from '../transport/transport.js';
export {
  HttpTransport,
  type WireEvent,
  type WireReply,
  type WireRequest,
} from '../transport/http-transport.js';
export type { ReplyHead, ReplyHeaders } from '../transport/http-send.js';
export { CardSignatureError } from '../security/signature-error.js';
export type { VerifyAgentCardOptions } from '../security/card-signing.js';
export { JsonRpcTransport } from '../bindings/jsonrpc/client.js';
export { RestTransport } from '../bindings/rest/client.js';
export { grpcTransportWith, LazyGrpcTransport, type GrpcExtraOptions } from './lazy-grpc.js';
export type { ClientTlsPem } from '../transport/client-tls.js';
export { LazyNatsTransport } from './lazy-nats.js';
export { PROTOCOL_VERSION } from '../core/interfaces.js';
export {
  agentMessage,
  dataOf,
  dataPart,
  fileUrlPart,
  rawPart,
  textOf,
  textPart,
  userMessage,
} from '../core/parts.js';
export { isInterrupted, isSettled, isTerminal } from '../core/task-state.js';
export type {
  AgentCard,
  AgentInterface,
  Artifact,
  Message,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
  TaskState,
} from '../core/schemas/index.js';
export { proxyService } from './proxy.js';
export type { ProxyCallRecord, ProxyOptions } from './proxy.js';
