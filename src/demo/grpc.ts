/**
 * Where the demo serves gRPC: next to HTTP on port + 1 (any free port when HTTP takes any free
 * port), unless turned off or the optional gRPC packages are not installed.
 */

/** The demo's gRPC settings. */
export interface DemoGrpcOptions {
  /** false: HTTP only; true: gRPC or fail; default: gRPC when its packages are installed. */
  grpc?: boolean;
  /** gRPC port (default: the HTTP port + 1, or 0 when the HTTP port is 0). */
  grpcPort?: number;
}

/** The gRPC port that goes with an HTTP port. */
export function defaultGrpcPort(httpPort: number): number {
  return httpPort === 0 || httpPort >= 65535 ? 0 : httpPort + 1;
}

/** serve()'s `grpc` option for the demo. */
export async function demoGrpc(
  httpPort: number,
  options: DemoGrpcOptions,
): Promise<{ port: number } | false> {
  if (options.grpc === false) return false;
  if (options.grpc === undefined && !(await grpcInstalled())) return false;
  return { port: options.grpcPort ?? defaultGrpcPort(httpPort) };
}

async function grpcInstalled(): Promise<boolean> {
  try {
    await import('../bindings/grpc/serve.js');
    return true;
  } catch {
    return false;
  }
}
