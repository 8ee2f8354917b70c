/** Assertions on normalised replies: success, and each error as its binding must render it. */
import { expect } from 'vitest';
import type { CallResult, OpenResult, StreamResult } from './driver.js';
import {
  A2A_ERRORS,
  BAD_REQUEST_TYPE,
  CANONICAL_HTTP_STATUS,
  ERROR_DOMAIN,
  ERROR_INFO_TYPE,
  GRPC_CODES,
  JSONRPC_CODES,
  isRecord,
  type A2AReason,
  type GrpcCodeName,
  type JsonRpcStandardError,
  type WireError,
} from './wire.js';

type AnyResult = CallResult | OpenResult | StreamResult;

/** The result of a successful call; fails the test with the error otherwise. */
export function ok(res: CallResult): unknown {
  if (!res.ok) return expect.fail(`expected success, got ${describe(res.error)}`);
  return res.result;
}

/** The error of a failed call; fails the test on success. */
export function errorOf(res: AnyResult): WireError {
  if (res.ok) return expect.fail('expected an error reply, got success');
  return res.error;
}

/**
 * Checks `res` is A2A error `reason` as its binding must render it (spec §5.4, §9.5, §10.6,
 * §11.6): JSON-RPC code -3200x with `data` = `@type` objects including ErrorInfo; REST HTTP status
 * per v1.0.1 with google.rpc.Status `{code, status, message, details}` including ErrorInfo; gRPC
 * status code per v1.0.1 with a google.rpc.Status holding ErrorInfo in `grpc-status-details-bin`.
 */
export function expectError(res: AnyResult, reason: A2AReason): WireError {
  const error = errorOf(res);
  const mapping = A2A_ERRORS[reason];
  expect(error.code, describe(error)).toBe(reason);
  expect(error.message.length, 'a human-readable message').toBeGreaterThan(0);
  if (error.binding === 'JSONRPC 0.3' || error.binding === 'HTTP+JSON 0.3') {
    // 0.3 errors are a bare {code, message} with the same -3200x codes for the A2A errors
    // (0.3 spec §8.2) and no ErrorInfo; HTTP+JSON sends it with the error's HTTP status.
    if (error.binding === 'JSONRPC 0.3')
      expect(error.rpcCode, describe(error)).toBe(mapping.jsonrpc);
    else expect(error.httpStatus, describe(error)).toBe(mapping.http);
    return error;
  }
  if (error.binding === 'GRPC 0.3') {
    // The 0.3 status (what the 0.3 SDKs send): unsupported operations are UNIMPLEMENTED.
    expectGrpcStatus(error, GRPC_03[reason] ?? mapping.grpc);
    return error;
  }
  const info = error.details.find((d) => d['@type'] === ERROR_INFO_TYPE);
  expect(info, 'ErrorInfo detail').toMatchObject({ reason, domain: ERROR_DOMAIN });
  if (isRecord(info) && info.metadata !== undefined) {
    // ErrorInfo.metadata is map<string, string>.
    expect(Object.values(info.metadata as object).every((v) => typeof v === 'string')).toBe(true);
  }
  if (error.binding === 'JSONRPC') {
    expect(error.rpcCode, describe(error)).toBe(mapping.jsonrpc);
  } else if (error.binding === 'GRPC') {
    expectGrpcStatus(error, mapping.grpc);
  } else {
    expect(error.httpStatus, describe(error)).toBe(mapping.http);
    expect(error.status, describe(error)).toBe(mapping.status);
  }
  return error;
}

/** The gRPC statuses a 0.3 caller gets where they differ from 1.0's. */
const GRPC_03: Partial<Record<A2AReason, GrpcCodeName>> = {
  PUSH_NOTIFICATION_NOT_SUPPORTED: 'UNIMPLEMENTED',
  UNSUPPORTED_OPERATION: 'UNIMPLEMENTED',
};

function expectGrpcStatus(error: WireError, name: GrpcCodeName): void {
  expect([error.grpcCode, error.status], describe(error)).toEqual([GRPC_CODES[name], name]);
}

/** Checks a validation error (-32602 / 400 INVALID_ARGUMENT), naming `field` when given. */
export function expectInvalidParams(res: AnyResult, field?: string): WireError {
  const error = expectGeneric(res, 'INVALID_PARAMS');
  // 0.3 errors carry no BadRequest detail to name the field in.
  if (field !== undefined && !error.binding.endsWith(' 0.3')) {
    const violations = error.details
      .filter((d) => d['@type'] === BAD_REQUEST_TYPE)
      .flatMap((d) => (Array.isArray(d.fieldViolations) ? (d.fieldViolations as unknown[]) : []));
    const fields = violations.map((v) => (isRecord(v) ? String(v.field) : ''));
    expect(
      fields.some((f) => f === field || f.startsWith(`${field}.`)),
      describe(error),
    ).toBe(true);
  }
  return error;
}

/** HTTP status and google.rpc status of each generic error on the HTTP+JSON binding. */
const REST_GENERIC: Record<JsonRpcStandardError, { http: number; status: string }> = {
  PARSE_ERROR: { http: 400, status: 'INVALID_ARGUMENT' },
  INVALID_REQUEST: { http: 400, status: 'INVALID_ARGUMENT' },
  INVALID_PARAMS: { http: 400, status: 'INVALID_ARGUMENT' },
  METHOD_NOT_FOUND: { http: 404, status: 'NOT_FOUND' },
  INTERNAL: { http: 500, status: 'INTERNAL' },
};

/** gRPC status of each generic error (spec §3.3.2: validation INVALID_ARGUMENT, …). */
const GRPC_GENERIC: Record<JsonRpcStandardError, GrpcCodeName> = {
  PARSE_ERROR: 'INVALID_ARGUMENT',
  INVALID_REQUEST: 'INVALID_ARGUMENT',
  INVALID_PARAMS: 'INVALID_ARGUMENT',
  METHOD_NOT_FOUND: 'UNIMPLEMENTED',
  INTERNAL: 'INTERNAL',
};

/** Checks a generic (non-A2A) error: its JSON-RPC code, its gRPC status, or its REST status pair. */
export function expectGeneric(res: AnyResult, kind: JsonRpcStandardError): WireError {
  const error = errorOf(res);
  if (error.binding === 'JSONRPC' || error.binding === 'JSONRPC 0.3') {
    expect(error.rpcCode, describe(error)).toBe(JSONRPC_CODES[kind]);
  } else if (error.binding === 'HTTP+JSON 0.3') {
    expect(error.httpStatus, describe(error)).toBe(REST_GENERIC[kind].http);
  } else if (error.binding === 'GRPC' || error.binding === 'GRPC 0.3') {
    expectGrpcStatus(error, GRPC_GENERIC[kind]);
  } else {
    expect(error.httpStatus, describe(error)).toBe(REST_GENERIC[kind].http);
    expect(error.status, describe(error)).toBe(REST_GENERIC[kind].status);
  }
  return error;
}

/** A REST error's `status` must be the google.rpc code of its HTTP status, where one exists. */
export function expectCanonicalStatus(error: WireError): void {
  if (error.binding !== 'HTTP+JSON' || error.status === undefined) return;
  const canonical = Object.entries(CANONICAL_HTTP_STATUS)
    .filter(([, http]) => http === error.httpStatus)
    .map(([name]) => name);
  if (canonical.length > 0) expect(canonical, describe(error)).toContain(error.status);
}

export function describe(error: WireError): string {
  const grpc = error.grpcCode === undefined ? '' : `, grpc ${error.grpcCode}`;
  return `${error.binding} error ${error.code} (http ${error.httpStatus}, rpc ${String(error.rpcCode)}, status ${String(error.status)}${grpc}): ${error.message}`;
}
