/**
 * gRPC errors as {@link WireError} (spec §10.6): the status code and message of the call, and
 * the google.rpc.Status in the `grpc-status-details-bin` trailer, whose details (ErrorInfo,
 * BadRequest) become `@type` objects. Written from the spec, independently of src/.
 */
import type { Metadata, ServiceError } from '@grpc/grpc-js';
import { decode, messageType } from './grpc-codec.js';
import {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  GRPC_CODES,
  MalformedReply,
  isRecord,
  reasonOf,
  type WireError,
} from './wire.js';

const DETAILS_KEY = 'grpc-status-details-bin';

/** `@type` URL → the message it holds. */
const DETAIL_TYPES: ReadonlyMap<string, string> = new Map([
  [ERROR_INFO_TYPE, 'google.rpc.ErrorInfo'],
  [BAD_REQUEST_TYPE, 'google.rpc.BadRequest'],
]);

/** The name of a numeric status code. */
export function codeName(code: number): string {
  return Object.entries(GRPC_CODES).find(([, n]) => n === code)?.[0] ?? `CODE_${code}`;
}

/** Response metadata as Headers (text values; several values of one key joined by `, `). */
export function metadataHeaders(metadata: Metadata | undefined): Headers {
  const headers = new Headers();
  for (const key of Object.keys(metadata?.getMap() ?? {})) {
    const values = (metadata?.get(key) ?? []).filter((v): v is string => typeof v === 'string');
    if (values.length > 0) headers.set(key, values.join(', '));
  }
  return headers;
}

/** A failed call's status as a WireError; a details trailer that contradicts it is malformed. */
export function grpcError(error: ServiceError): WireError {
  const code: number = error.code;
  const name = codeName(code);
  const trailers = error.metadata.get(DETAILS_KEY);
  if (trailers.length > 1) throw new MalformedReply(`${DETAILS_KEY} sent ${trailers.length} times`);
  const [bytes] = trailers;
  const status = bytes === undefined ? undefined : statusOf(bytes);
  if (status && status.code !== code)
    throw new MalformedReply(`${DETAILS_KEY} code ${status.code} differs from status ${code}`);
  if (status && status.message !== error.details)
    throw new MalformedReply(`${DETAILS_KEY} message differs from the status message`);
  const details = status?.details ?? [];
  return {
    binding: 'GRPC',
    code: reasonOf(details) ?? name,
    httpStatus: 200,
    rpcCode: undefined,
    status: name,
    grpcCode: code,
    message: error.details,
    details,
    raw: { code, message: error.details, status },
  };
}

interface DecodedStatus {
  code: number;
  message: string;
  details: Record<string, unknown>[];
}

/** Parses a serialized google.rpc.Status; its Any details become `@type` objects. */
function statusOf(bytes: string | Buffer): DecodedStatus {
  if (typeof bytes === 'string') throw new MalformedReply(`${DETAILS_KEY} must be binary`);
  const raw = messageType('google.rpc.Status').deserialize(bytes) as Record<string, unknown>;
  const details = (Array.isArray(raw.details) ? (raw.details as unknown[]) : []).map(anyOf);
  return {
    code: typeof raw.code === 'number' ? raw.code : 0,
    message: typeof raw.message === 'string' ? raw.message : '',
    details,
  };
}

/** A google.protobuf.Any as ProtoJSON: `@type` plus the fields of the messages we know. */
function anyOf(any: unknown): Record<string, unknown> {
  if (!isRecord(any)) throw new MalformedReply('a status detail is not a message');
  // proto-loader keeps the bundled Any's field names as written (type_url).
  const typeUrl = any.typeUrl ?? any.type_url;
  if (typeof typeUrl !== 'string' || typeUrl === '')
    throw new MalformedReply('a status detail has no type_url');
  const type = DETAIL_TYPES.get(typeUrl);
  if (!type) return { '@type': typeUrl };
  const value = typeof any.value === 'string' ? Buffer.from(any.value, 'base64') : Buffer.alloc(0);
  return { '@type': typeUrl, ...decode(type, messageType(type).deserialize(value)) };
}
