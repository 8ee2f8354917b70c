/**
 * The A2A 0.3 gRPC binding of a server with `compat: ['0.3']` (`a2a.v1.A2AService`, docs/interop.md),
 * spoken through our 0.3 gRPC client transport (src/bindings/grpc/v03-client.ts), as the 0.3 HTTP
 * drivers speak through theirs (test/helpers/v03-driver.ts, whose skip lists apply here too): the
 * test bodies pass and read 1.0 shapes, the transport converts them to and from the 0.3 wire. A
 * grpc-js interceptor records each call's response metadata and final status, so an error keeps
 * its wire facts (the gRPC status 0.3 callers get). The 0.3 wire shapes themselves are checked raw
 * by test/interop/v03-*.test.ts (the real 0.3 SDK) and test/fuzz/v03-grpc.test.ts.
 */
import {
  InterceptingCall,
  ListenerBuilder,
  type ChannelOptions,
  type Interceptor,
  type Metadata,
  type StatusObject,
} from '@grpc/grpc-js';
import { Grpc03Transport } from '../../src/bindings/grpc/v03-client.js';
import { A2AError } from '../../src/core/errors.js';
import { TransportError } from '../../src/transport/errors.js';
import type { BindingDriver, CallOptions, CallResult } from './driver.js';
import { readStream } from './driver.js';
import { codeName, metadataHeaders } from './grpc-errors.js';
import { openStream, plainHeaders, refuseHttpOnly } from './v03-driver.js';
import type { WireError } from './wire.js';

/** What the interceptor saw of the last call. */
interface Seen {
  headers: Headers;
  status: StatusObject | undefined;
}

/** A driver for the 0.3 gRPC interface at `address` (`host:port`); close() releases its channel. */
export function v03GrpcDriver(address: string): BindingDriver & { close(): void } {
  let seen: Seen = { headers: new Headers(), status: undefined };
  const recorder: Interceptor = (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        seen = { headers: new Headers(), status: undefined };
        const record = new ListenerBuilder()
          .withOnReceiveMetadata((received: Metadata, go) => {
            seen.headers = v1Headers(metadataHeaders(received));
            go(received);
          })
          .withOnReceiveStatus((status, go) => {
            seen.status = status;
            go(status);
          })
          .build();
        next(metadata, { ...listener, ...record });
      },
    });
  const channelOptions = { interceptors: [recorder] } as unknown as ChannelOptions;
  const transports = new Map<string, Grpc03Transport>();
  const transport = (options: CallOptions): Grpc03Transport => {
    refuseHttpOnly(options);
    const headers = plainHeaders(options.headers);
    const key = JSON.stringify(headers);
    let found = transports.get(key);
    if (!found) {
      found = new Grpc03Transport({ url: address, headers, channelOptions });
      transports.set(key, found);
    }
    return found;
  };
  const failure = async (error: unknown, signal?: AbortSignal): Promise<WireError> => {
    if (signal?.aborted) throw error;
    // The status listener runs right after the error reaches the transport.
    for (let i = 0; i < 20 && seen.status === undefined; i++)
      await new Promise((r) => setTimeout(r, 5));
    return wireError(error, seen.status);
  };

  const driver: BindingDriver & { close(): void } = {
    name: 'GRPC 0.3',
    endpoint: address,
    async call(operation, params, options = {}): Promise<CallResult> {
      if (operation === 'SendStreamingMessage' || operation === 'SubscribeToTask') {
        throw new Error(`${operation} is a stream: use open() or stream()`);
      }
      try {
        const result = await transport(options).call(operation, params, {
          signal: options.signal,
        });
        return { ok: true, result, httpStatus: 200, headers: seen.headers };
      } catch (error) {
        return { ok: false, error: await failure(error, options.signal), headers: seen.headers };
      }
    },
    open: (operation, params, options = {}) =>
      openStream(transport(options), operation, params, options, () => seen.headers, failure),
    async stream(operation, params, options = {}) {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    raw() {
      throw new Error('GRPC 0.3 is spoken through the 0.3 client: restrict raw tests to 1.0');
    },
    parse() {
      throw new Error('GRPC 0.3 is spoken through the 0.3 client: it has no raw replies');
    },
    close() {
      for (const t of transports.values()) t.close();
      transports.clear();
    },
  };
  return driver;
}

/** An error the 0.3 transport threw, with the status of the call. */
function wireError(error: unknown, status: StatusObject | undefined): WireError {
  if (!(error instanceof A2AError) && !(error instanceof TransportError)) throw error;
  return {
    binding: 'GRPC 0.3',
    code: error instanceof A2AError ? error.code : `transport:${error.code}`,
    httpStatus: 200,
    rpcCode: undefined,
    status: status === undefined ? undefined : codeName(status.code),
    grpcCode: status?.code,
    message: error.message,
    details: [],
    raw: status,
  };
}

/** Reply metadata with the 0.3 `x-a2a-extensions` also under its 1.0 name, as the tests read it. */
function v1Headers(headers: Headers): Headers {
  const extensions = headers.get('x-a2a-extensions');
  if (extensions !== null) headers.set('a2a-extensions', extensions);
  return headers;
}
