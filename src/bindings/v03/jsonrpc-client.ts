/**
 * Client of a 0.3 agent's JSON-RPC interface (0.3 spec §7): the 1.0 JSON-RPC transport with the
 * 0.3 method names, params and results converted at the edge (`requests.ts`), and no
 * `A2A-Version` header (0.3 has none). The caller sends and receives 1.0 shapes. ListTasks has no
 * 0.3 method: it fails with UNSUPPORTED_OPERATION before anything is sent.
 */
import { A2AError } from '../../core/errors.js';
import type { OperationName } from '../../core/operations.js';
import { JsonRpcTransport } from '../jsonrpc/client.js';
import { eventFrom03 } from './convert.js';
import { jsonRpcParamsTo03, jsonRpcResultFrom03 } from './requests.js';
import { V03_METHODS, V03_VERSION } from './wire.js';

/** Client of a 0.3 JSON-RPC interface; the API is the 1.0 one. */
export class JsonRpc03Transport extends JsonRpcTransport {
  /** The protocol version this transport speaks. */
  readonly protocolVersion = V03_VERSION;

  protected override wireCall(operation: OperationName, params: Record<string, unknown>) {
    const method = V03_METHODS[operation];
    if (method === undefined) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        `${operation} does not exist in A2A 0.3; this agent's interface speaks 0.3`,
      );
    }
    return { method, params: jsonRpcParamsTo03(operation, params), noVersion: true };
  }

  protected override fromWire(operation: OperationName, result: unknown): unknown {
    if (operation === 'SendStreamingMessage' || operation === 'SubscribeToTask') {
      return eventFrom03(result);
    }
    return jsonRpcResultFrom03(operation, result);
  }
}
