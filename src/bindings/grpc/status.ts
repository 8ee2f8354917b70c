/**
 * Errors on the gRPC wire (spec §10.6): a status code from the catalog and, in the
 * `grpc-status-details-bin` trailer, a serialized google.rpc.Status whose details hold
 * google.rpc.ErrorInfo (A2A errors) and google.rpc.BadRequest (validation failures).
 */
import { ERROR_CATALOG, errorDetails, type A2AError } from '../../core/errors.js';
import { fromProto, toProto } from './convert.js';
import { proto, type ProtoObject } from './proto.js';
import { BAD_REQUEST_TYPE, ERROR_INFO_TYPE, STATUS_OF } from './wire.js';

const STATUS = 'google.rpc.Status';
const DETAIL_TYPES: ReadonlyMap<string, string> = new Map([
  [ERROR_INFO_TYPE, 'google.rpc.ErrorInfo'],
  [BAD_REQUEST_TYPE, 'google.rpc.BadRequest'],
]);

/** A decoded google.rpc.Status: code, message and its details as `@type` JSON objects. */
export interface StatusDetails {
  code: number;
  message: string;
  details: Record<string, unknown>[];
}

/** The keys of google.protobuf.Any as the loader spells them (the bundled Any keeps `type_url`). */
function anyKeys(): { typeUrl: string; value: string } {
  const keys = proto()
    .message('google.protobuf.Any')
    .fields.map((f) => f.key);
  return {
    typeUrl: keys.find((k) => k === 'typeUrl' || k === 'type_url') ?? 'typeUrl',
    value: 'value',
  };
}

/** The numeric gRPC status of an error code (v1.0.1 mapping of the catalog). */
export function grpcStatusOf(error: A2AError): number {
  return STATUS_OF[ERROR_CATALOG[error.code].grpc];
}

/** Serializes a google.rpc.Status whose details are the `@type` JSON objects we know. */
export function encodeStatus(status: StatusDetails): Buffer {
  const details: ProtoObject[] = [];
  const keys = anyKeys();
  for (const detail of status.details) {
    const typeUrl = detail['@type'];
    const type = typeof typeUrl === 'string' ? DETAIL_TYPES.get(typeUrl) : undefined;
    if (!type) continue;
    const value = proto().message(type).serialize(toProto(type, detail));
    details.push({ [keys.typeUrl]: typeUrl, [keys.value]: value });
  }
  return proto().message(STATUS).serialize({ code: status.code, message: status.message, details });
}

/**
 * Parses a serialized google.rpc.Status. Details of known types become their JSON form with
 * `@type`; others keep only their `@type`. Undefined when the bytes are not a Status.
 */
export function decodeStatus(bytes: Uint8Array): StatusDetails | undefined {
  let raw: ProtoObject;
  try {
    raw = proto().message(STATUS).deserialize(Buffer.from(bytes));
  } catch {
    return undefined;
  }
  const details: Record<string, unknown>[] = [];
  const keys = anyKeys();
  for (const any of Array.isArray(raw.details) ? (raw.details as unknown[]) : []) {
    const fields = (any ?? {}) as Record<string, unknown>;
    const typeUrl = fields[keys.typeUrl];
    const value = fields[keys.value];
    if (typeof typeUrl !== 'string') continue;
    const type = DETAIL_TYPES.get(typeUrl);
    if (!type || !(value instanceof Uint8Array)) {
      details.push({ '@type': typeUrl });
      continue;
    }
    try {
      const decoded = fromProto(type, proto().message(type).deserialize(Buffer.from(value)));
      details.push({ '@type': typeUrl, ...decoded });
    } catch {
      details.push({ '@type': typeUrl });
    }
  }
  return {
    code: typeof raw.code === 'number' ? raw.code : 0,
    message: typeof raw.message === 'string' ? raw.message : '',
    details,
  };
}

/** The status details of an A2AError: what goes into `grpc-status-details-bin`. */
export function statusOfError(error: A2AError): StatusDetails {
  return { code: grpcStatusOf(error), message: error.message, details: errorDetails(error) };
}
