/**
 * The gRPC side of {@link AccessControl}: the `authenticate` hook of the gRPC service, reading
 * credentials from call metadata (`authorization`, API-key keys, `cookie`) and the TLS client
 * certificate, so gRPC callers are authenticated and limited exactly like HTTP ones (spec §7.4:
 * all bindings support the same schemes).
 */
import type { CallContext, HttpHeaders, Principal } from '../../core/call-context.js';
import { clientCertificateOf, type PeerCertificateLike } from '../../security/auth/certificate.js';
import type { AuthRequest } from '../../security/auth/types.js';
import type { AccessControl } from '../../security/limits/access-control.js';

/** What the gRPC server tells its `authenticate` hook about a call (structural: no grpc-js). */
export interface GrpcGateCall {
  readonly metadata: { get(key: string): readonly (string | Uint8Array)[] };
  /** `ipv4:127.0.0.1:5555`, `ipv6:[::1]:5555` or `127.0.0.1:5555`. */
  readonly peer: string;
  /** The context being built for the call; the principal goes there. */
  readonly context?: CallContext | undefined;
  /** The verified TLS client certificate, on a TLS server that requires one. */
  readonly certificate?: PeerCertificateLike | undefined;
}

/** The gRPC `authenticate` hook backed by `access`; throws the refusal (status + message). */
export function grpcAuthenticate(
  access: AccessControl,
): (info: GrpcGateCall) => Promise<Principal | undefined> {
  return async (info) => {
    const call: CallContext = info.context ?? {};
    const refusal = await access.admit(grpcAuthRequest(info), call);
    if (refusal !== undefined) throw refusal;
    return call.principal;
  };
}

/** The {@link AuthRequest} of a gRPC call. */
export function grpcAuthRequest(info: GrpcGateCall): AuthRequest {
  const remoteAddress = peerAddress(info.peer);
  // grpc-js only reports a certificate that verified (it rejects the others at the handshake).
  const certificate = clientCertificateOf(info.certificate, true);
  return {
    binding: 'GRPC',
    headers: new MetadataHeaders(info.metadata),
    query: new URLSearchParams(),
    ...(certificate === undefined ? {} : { clientCertificate: certificate }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  };
}

/** Metadata as headers: text values of a key, joined like repeated HTTP headers. */
export class MetadataHeaders implements HttpHeaders {
  constructor(private readonly metadata: GrpcGateCall['metadata']) {}
  get(name: string): string | null {
    const values = this.metadata.get(name).filter((v): v is string => typeof v === 'string');
    return values.length === 0 ? null : values.join(', ');
  }
}

/** The IP address of a grpc-js peer string. */
export function peerAddress(peer: string): string | undefined {
  const bare = peer.replace(/^(ipv4|ipv6):/, '');
  const bracketed = /^\[([^\]]+)\]/.exec(bare);
  if (bracketed) return bracketed[1];
  const colon = bare.lastIndexOf(':');
  const address = colon < 0 ? bare : bare.slice(0, colon);
  return address === '' ? undefined : address;
}
