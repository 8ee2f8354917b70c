/** JSON-RPC binding facts shared by client and server (spec §9). */
import type { OperationName } from '../../core/operations.js';

/** JSON-RPC content type (spec §9.1). */
export const JSONRPC_CONTENT_TYPE = 'application/json';

/** Method names are the PascalCase operation names (spec §9.1). */
export function methodFor(operation: OperationName): string {
  return operation;
}

/** A JSON-RPC 2.0 request id. */
export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 error object as sent by A2A (`data` is an array of `@type` objects). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
