/**
 * Server side of the gRPC binding (spec §10): `lf.a2a.v1.A2AService` on @grpc/grpc-js, backed by
 * an A2AServer. Each call: version and extensions from metadata, the request converted and then
 * validated exactly like the HTTP bindings, the tenant from the request's `tenant` field, errors
 * as the catalog's status with google.rpc.Status details. Nothing a handler throws crashes the
 * process: unexpected failures become INTERNAL with a generic message.
 */
import {
  Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import {
  OPERATIONS,
  type OperationName,
  type StreamingOperationName,
} from '../../core/operations.js';
import { parseParams } from '../../core/validate.js';
import {
  A2AError,
  type InternalErrorReporter,
  logInternalError,
  toA2AError,
} from '../../core/errors.js';
import { reportRefusal } from '../../core/refusal.js';
import type { A2AService } from '../../core/service.js';
import type { PeerCertificateLike as PeerCertificate } from '../../security/auth/certificate.js';
import type { CallContext, Principal } from '../../core/call-context.js';
import { MetadataHeaders, peerAddress } from './auth-gate.js';
import { a2aType, fromProto, toProto } from './convert.js';
import { proto, type ProtoObject } from './proto.js';
import {
  replyMetadata,
  requestedExtensions,
  versionError,
  withLastEventId,
} from './service-params.js';
import { encodeStatus, grpcStatusOf, statusOfError } from './status.js';
import { tolerantDefinition, unreadableError } from './unreadable.js';
import { utf8Error } from './utf8.js';
import { GRPC_STATUS, RPC_TYPES, SERVICE_NAME, STATUS_DETAILS_KEY } from './wire.js';

/** What an authentication hook sees of a call. */
export interface GrpcCallInfo {
  readonly metadata: Metadata;
  readonly peer: string;
  /** The context being built for the call (the returned principal goes there too). */
  readonly context?: CallContext | undefined;
  /** The TLS client certificate, on a server whose credentials require one (mutual TLS). */
  readonly certificate?: PeerCertificate | undefined;
}

/** Options of {@link createGrpcService}. */
export interface GrpcServiceOptions {
  /** Receives unexpected errors before they are answered as INTERNAL (default: stderr). */
  onError?: InternalErrorReporter | undefined;
  /**
   * Identifies the caller from the call metadata (e.g. `authorization`); throw an A2AError to
   * refuse. Tasks belong to the returned principal, as with the HTTP bindings.
   */
  authenticate?:
    ((call: GrpcCallInfo) => Principal | undefined | Promise<Principal | undefined>) | undefined;
}

/** The service definition and handlers to add to any grpc-js Server. */
export interface GrpcService {
  readonly definition: ServiceDefinition;
  readonly implementation: UntypedServiceImplementation;
}

/** The gRPC status object of an A2AError, with the google.rpc.Status trailer (spec §10.6). */
export function serviceError(error: A2AError): {
  code: number;
  details: string;
  metadata: Metadata;
} {
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, encodeStatus(statusOfError(error)));
  return { code: grpcStatusOf(error), details: error.message, metadata };
}

/**
 * The A2AError to answer with for anything thrown: spec errors as they are, anything else as a
 * generic INTERNAL (reported first). Never throws, so no handler can crash the process.
 */
function failureOf(error: unknown, onError: InternalErrorReporter): A2AError {
  try {
    return toA2AError(error, onError);
  } catch {
    return new A2AError('INTERNAL', 'Internal error');
  }
}

/** The gRPC status of `error`; never throws. */
function failureStatus(error: A2AError) {
  try {
    return serviceError(error);
  } catch {
    return { code: GRPC_STATUS.INTERNAL, details: 'Internal error', metadata: new Metadata() };
  }
}

/** Builds `lf.a2a.v1.A2AService` for `service` (an A2AServer). */
export function createGrpcService(
  service: A2AService,
  options: GrpcServiceOptions = {},
): GrpcService {
  const onError = options.onError ?? logInternalError;
  const definition = tolerantDefinition(
    proto().definition[SERVICE_NAME] as ServiceDefinition,
    (method, bytes) => utf8Error(bytes, a2aType(RPC_TYPES[method as OperationName].request)),
  );

  // Calls refused before an observing middleware saw them are reported (core/refusal.ts).
  const observed = service.refused !== undefined;

  /** The context of a call, before anything is checked (so a refusal has one too). */
  function context(metadata: Metadata, peer: string, signal: AbortSignal): CallContext {
    const call: CallContext = {
      signal,
      protocolBinding: 'GRPC',
      headers: new MetadataHeaders(metadata),
    };
    const remoteAddress = peerAddress(peer);
    if (remoteAddress !== undefined) call.remoteAddress = remoteAddress;
    const extensions = requestedExtensions(metadata);
    if (extensions !== undefined) call.requestedExtensions = extensions;
    return call;
  }

  /** Checks the version, authenticates, decodes and validates: the call's params. */
  async function prepare(
    name: OperationName,
    call: CallContext,
    request: ProtoObject,
    metadata: Metadata,
    peer: string,
    certificate?: PeerCertificate,
  ) {
    const refused = versionError(metadata);
    if (refused) throw refused;
    const principal = await options.authenticate?.({ metadata, peer, context: call, certificate });
    if (principal !== undefined) call.principal = principal;
    const unreadable = unreadableError(request, RPC_TYPES[name].request);
    if (unreadable) throw unreadable;
    const params = parseParams(name, fromProto(RPC_TYPES[name].request, request));
    call.tenant = params.tenant;
    return withLastEventId(name, params, metadata);
  }

  /** The status of a failed call, reported as a refusal when no observing middleware saw it. */
  function failed(name: OperationName, call: CallContext, thrown: unknown, startedAt: number) {
    const error = failureOf(thrown, onError);
    if (observed) reportRefusal(service, { operation: name, call, error, startedAt }, onError);
    return failureStatus(error);
  }

  const unary =
    (name: Exclude<OperationName, StreamingOperationName>) =>
    (call: ServerUnaryCall<ProtoObject, ProtoObject>, reply: sendUnaryData<ProtoObject>): void => {
      const startedAt = observed ? performance.now() : 0;
      const abort = new AbortController();
      call.once('cancelled', () => abort.abort());
      const run = async () => {
        const ctx = context(call.metadata, call.getPeer(), abort.signal);
        try {
          const params = await prepare(
            name,
            ctx,
            call.request,
            call.metadata,
            call.getPeer(),
            call.getAuthContext().sslPeerCertificate,
          );
          const result = await service.invoke(name, params, ctx);
          const response = toProto(RPC_TYPES[name].response, result);
          call.sendMetadata(replyMetadata(ctx));
          reply(null, response);
        } catch (error) {
          reply(failed(name, ctx, error, startedAt));
        }
      };
      detach(run(), onError);
    };

  const streaming =
    (name: StreamingOperationName) =>
    (call: ServerWritableStream<ProtoObject, ProtoObject>): void => {
      detach(pump(name, call), onError);
    };

  async function pump(
    name: StreamingOperationName,
    call: ServerWritableStream<ProtoObject, ProtoObject>,
  ): Promise<void> {
    const startedAt = observed ? performance.now() : 0;
    const abort = new AbortController();
    call.once('cancelled', () => abort.abort());
    let iterator: AsyncIterator<{ event: unknown }> | undefined;
    const ctx = context(call.metadata, call.getPeer(), abort.signal);
    try {
      const params = await prepare(
        name,
        ctx,
        call.request,
        call.metadata,
        call.getPeer(),
        call.getAuthContext().sslPeerCertificate,
      );
      const source = await service.stream(name, params, ctx);
      iterator = source[Symbol.asyncIterator]();
      // Headers go out now, so clients see the stream open before the first event.
      call.sendMetadata(replyMetadata(ctx));
      while (!abort.signal.aborted) {
        const next = await iterator.next();
        if (next.done || abort.signal.aborted) break;
        if (!call.write(toProto('StreamResponse', next.value.event))) {
          await drained(call, abort.signal);
        }
      }
      if (!abort.signal.aborted) call.end();
    } catch (error) {
      const status = failed(name, ctx, error, startedAt);
      if (!abort.signal.aborted) call.emit('error', status);
    } finally {
      // The client went away or the stream ended: stop reading events. The task goes on
      // (spec §3.5.2: closing a stream never cancels its task).
      try {
        await iterator?.return?.();
      } catch {
        // The stream already failed: nothing left to release.
      }
    }
  }

  const implementation: UntypedServiceImplementation = {};
  for (const name of Object.keys(OPERATIONS) as OperationName[]) {
    const method = definition[name];
    if (!method) throw new Error(`proto/a2a.proto lacks rpc ${name}`);
    implementation[name] =
      name === 'SendStreamingMessage' || name === 'SubscribeToTask' ? streaming(name) : unary(name);
  }
  return { definition, implementation };
}

/** Runs a handler without awaiting it; a failure it could not answer is reported, never thrown. */
export function detach(work: Promise<void>, onError: InternalErrorReporter): void {
  work.catch((error: unknown) => {
    try {
      onError(error);
    } catch {
      // A failing reporter must not crash the server either.
    }
  });
}

/** Resolves once `call` can take more writes, or the call ended (`signal`). */
export function drained(
  call: ServerWritableStream<ProtoObject, ProtoObject>,
  signal: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
