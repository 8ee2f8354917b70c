/**
 * Server side of the A2A 0.3 gRPC binding (0.3 spec §3.2.2): `a2a.v1.A2AService` over the same
 * A2AServer as `lf.a2a.v1.A2AService`, on the same grpc-js server (one task model: a task made
 * over 0.3 is read, streamed and canceled over 1.0 with the same id, and back). Each call: the
 * request decoded tolerantly and converted to 1.0 (`v03-requests.ts`), validated like every
 * binding, run with `protocolVersion: '0.3'` (push configs registered here get 0.3 payloads), and
 * the result converted back. No `a2a-version` is read: the service name says 0.3. Extensions
 * travel as `x-a2a-extensions`, as the 0.3 SDKs send them. Errors get the 0.3 statuses
 * (`v03-proto.ts`) with the google.rpc.Status trailer too (0.3 clients ignore it; ours read the
 * exact error from it). ListTasks is no rpc of the 0.3 service: gRPC itself answers UNIMPLEMENTED.
 */
import {
  Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { CallContext } from '../../core/call-context.js';
import {
  type A2AError,
  type InternalErrorReporter,
  logInternalError,
  toA2AError,
} from '../../core/errors.js';
import type { StreamingOperationName } from '../../core/operations.js';
import type { A2AService } from '../../core/service.js';
import { parseParams } from '../../core/validate.js';
import type { PeerCertificateLike as PeerCertificate } from '../../security/auth/certificate.js';
import { requestedExtensions03 } from '../v03/errors.js';
import { V03_VERSION } from '../v03/wire.js';
import { MetadataHeaders, peerAddress } from './auth-gate.js';
import { fromProto, toProto } from './convert.js';
import type { ProtoObject } from './proto.js';
import { detach, drained, type GrpcService, type GrpcServiceOptions } from './server.js';
import { withLastEventId } from './service-params.js';
import { encodeStatus, statusOfError } from './status.js';
import { tolerantDefinition, unreadableError } from './unreadable.js';
import { utf8Error } from './utf8.js';
import {
  grpcStatus03,
  protoV03,
  V03_EXTENSIONS_KEY,
  V03_PACKAGE,
  V03_RPCS,
  V03_SERVICE_NAME,
  type Rpc03,
} from './v03-proto.js';
import { protoResultTo03 } from '../v03/requests.js';
import { cardToProto03, paramsFrom03 } from './v03-requests.js';
import { FIRST_EVENT_ID_KEY, GRPC_STATUS, STATUS_DETAILS_KEY } from './wire.js';

/** The gRPC status object a 0.3 caller gets for an A2AError. */
export function serviceError03(error: A2AError): {
  code: number;
  details: string;
  metadata: Metadata;
} {
  const code = grpcStatus03(error);
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, encodeStatus({ ...statusOfError(error), code }));
  return { code, details: error.message, metadata };
}

function failureStatus03(error: unknown, onError: InternalErrorReporter) {
  try {
    return serviceError03(toA2AError(error, onError));
  } catch {
    return { code: GRPC_STATUS.INTERNAL, details: 'Internal error', metadata: new Metadata() };
  }
}

/** Reply metadata of a 0.3 call: activated extensions, a stream's first event id. */
function replyMetadata03(call: CallContext): Metadata {
  const metadata = new Metadata();
  const activated = call.activatedExtensions;
  if (activated !== undefined && activated.length > 0) {
    metadata.set(V03_EXTENSIONS_KEY, activated.join(', '));
  }
  if (call.firstEventId !== undefined) metadata.set(FIRST_EVENT_ID_KEY, call.firstEventId);
  return metadata;
}

/** Builds `a2a.v1.A2AService` (A2A 0.3) for `service` (an A2AServer). */
export function createGrpcService03(
  service: A2AService,
  options: GrpcServiceOptions = {},
): GrpcService {
  const onError = options.onError ?? logInternalError;
  const loaded = protoV03();
  const definition = tolerantDefinition(
    loaded.definition[V03_SERVICE_NAME] as ServiceDefinition,
    (method, bytes) => {
      const rpc = V03_RPCS[method];
      return rpc === undefined ? undefined : utf8Error(bytes, rpc.request);
    },
  );

  async function context(
    metadata: Metadata,
    peer: string,
    signal: AbortSignal,
    certificate: PeerCertificate | undefined,
  ): Promise<CallContext> {
    const call: CallContext = {
      signal,
      protocolBinding: 'GRPC',
      protocolVersion: V03_VERSION,
      headers: new MetadataHeaders(metadata),
    };
    const remoteAddress = peerAddress(peer);
    if (remoteAddress !== undefined) call.remoteAddress = remoteAddress;
    const values = metadata.get(V03_EXTENSIONS_KEY).filter((v) => typeof v === 'string');
    const extensions = requestedExtensions03(values.length > 0 ? values.join(',') : null);
    if (extensions !== undefined) call.requestedExtensions = extensions;
    const principal = await options.authenticate?.({ metadata, peer, context: call, certificate });
    if (principal !== undefined) call.principal = principal;
    return call;
  }

  async function prepare(
    rpc: Rpc03,
    call:
      ServerUnaryCall<ProtoObject, ProtoObject> | ServerWritableStream<ProtoObject, ProtoObject>,
    signal: AbortSignal,
  ) {
    const context03 = await context(
      call.metadata,
      call.getPeer(),
      signal,
      call.getAuthContext().sslPeerCertificate,
    );
    const unreadable = unreadableError(call.request, rpc.request.slice(V03_PACKAGE.length + 1));
    if (unreadable) throw unreadable;
    const name = rpc.operation;
    const params = parseParams(name, paramsFrom03(name, fromProto(rpc.request, call.request)));
    return { call: context03, params: withLastEventId(name, params, call.metadata) };
  }

  const unary =
    (rpc: Rpc03) =>
    (call: ServerUnaryCall<ProtoObject, ProtoObject>, reply: sendUnaryData<ProtoObject>): void => {
      const abort = new AbortController();
      call.once('cancelled', () => abort.abort());
      const run = async () => {
        try {
          const prepared = await prepare(rpc, call, abort.signal);
          const result = await service.invoke(rpc.operation, prepared.params, prepared.call);
          const response = toProto(
            rpc.response,
            protoResultTo03(rpc.operation, result, cardToProto03),
          );
          call.sendMetadata(replyMetadata03(prepared.call));
          reply(null, response);
        } catch (error) {
          reply(failureStatus03(error, onError));
        }
      };
      detach(run(), onError);
    };

  async function pump(rpc: Rpc03, call: ServerWritableStream<ProtoObject, ProtoObject>) {
    const abort = new AbortController();
    call.once('cancelled', () => abort.abort());
    let iterator: AsyncIterator<{ event: unknown }> | undefined;
    try {
      const prepared = await prepare(rpc, call, abort.signal);
      const name = rpc.operation as StreamingOperationName;
      const source = await service.stream(name, prepared.params, prepared.call);
      iterator = source[Symbol.asyncIterator]();
      call.sendMetadata(replyMetadata03(prepared.call));
      while (!abort.signal.aborted) {
        const next = await iterator.next();
        if (next.done || abort.signal.aborted) break;
        if (
          !call.write(toProto(rpc.response, protoResultTo03(name, next.value.event, cardToProto03)))
        ) {
          await drained(call, abort.signal);
        }
      }
      if (!abort.signal.aborted) call.end();
    } catch (error) {
      const status = failureStatus03(error, onError);
      if (!abort.signal.aborted) call.emit('error', status);
    } finally {
      // Closing a stream never cancels its task (spec §3.5.2): only stop reading events.
      try {
        await iterator?.return?.();
      } catch {
        // The stream already failed: nothing left to release.
      }
    }
  }

  const implementation: UntypedServiceImplementation = {};
  for (const [name, rpc] of Object.entries(V03_RPCS)) {
    const method = definition[name];
    if (!method) throw new Error(`proto/v03/a2a.proto lacks rpc ${name}`);
    implementation[name] = method.responseStream
      ? (call: ServerWritableStream<ProtoObject, ProtoObject>) => detach(pump(rpc, call), onError)
      : unary(rpc);
  }
  return { definition, implementation };
}
