/**
 * The security parts of serve(): one AccessControl shared by the HTTP and gRPC listeners (one
 * identity and one quota per caller whatever the binding), the handler with its signed card and
 * HSTS, and the gRPC options that authenticate and limit like HTTP.
 */
import {
  cardInterfaces,
  createA2AHandler,
  type A2AHandlerOptions,
} from '../bindings/a2a-handler.js';
import type { HttpHandler } from '../http/types.js';
import { withMiddleware, type OperationMiddleware } from '../core/middleware.js';
import type { A2AService } from '../core/service.js';
import { AccessControl } from '../security/limits/access-control.js';
import { grpcAuthenticate } from '../bindings/grpc/auth-gate.js';
import type { GrpcStartOptions } from './grpc.js';
import { signServedCard, type SignCardOptions } from './signed-card.js';
import { withHsts, type Pem, type TlsOptions } from './tls.js';

/** HSTS default: one year (RFC 6797 §11.2 suggests long-lived policies). */
const ONE_YEAR = 31_536_000;

/** The options of serve() this module reads. */
export interface SecureServeOptions extends A2AHandlerOptions {
  tls?: TlsOptions | undefined;
  signCard?: SignCardOptions | undefined;
}

/** The access control of serve(): the given one, or one built from `auth` and `limits`. */
export function accessControlOf(service: A2AService, options: SecureServeOptions): AccessControl {
  return (
    options.access ??
    new AccessControl(service.agentCard([]), { auth: options.auth, limits: options.limits })
  );
}

/**
 * What serve() passes to its gRPC listener: the service behind the access control's and `extra`
 * middleware (as on HTTP), authentication, TLS.
 */
export function grpcSecurity(
  service: A2AService,
  access: AccessControl,
  tls: TlsOptions | undefined,
  extra?: readonly OperationMiddleware[],
): { service: A2AService; options: Pick<GrpcStartOptions, 'authenticate' | 'tls'> } {
  const options: Pick<GrpcStartOptions, 'authenticate' | 'tls'> = {
    authenticate: grpcAuthenticate(access),
  };
  if (tls !== undefined) {
    const text = (pem: Pem) => (typeof pem === 'string' ? pem : Buffer.from(pem).toString('utf8'));
    const cas =
      tls.ca === undefined ? [] : Array.isArray(tls.ca) ? (tls.ca as Pem[]) : [tls.ca as Pem];
    options.tls = {
      cert: tls.cert,
      key: tls.key,
      ...(cas.length === 0 ? {} : { ca: cas.map(text).join('\n') }),
      requireClientCert: tls.requestCert === true,
    };
  }
  const middleware = [access.middleware, ...(extra ?? [])];
  return { service: withMiddleware(service, middleware), options };
}

/**
 * The HTTP handler of serve() for `options.baseUrl`. With `signCard` the card is signed first;
 * requests that arrive meanwhile wait for it (`ready` settles when it is done or has failed).
 */
export function servedHandler(
  service: A2AService,
  options: SecureServeOptions & { baseUrl: string },
): { handler: HttpHandler; ready: Promise<void> } {
  const hsts = options.tls?.hstsMaxAgeSeconds ?? ONE_YEAR;
  const finish = (handler: HttpHandler) =>
    options.tls !== undefined && hsts !== false ? withHsts(handler, hsts) : handler;
  const { signCard } = options;
  if (signCard === undefined) {
    return { handler: finish(createA2AHandler(service, options)), ready: Promise.resolve() };
  }
  const built = (async () => {
    const unsigned = service.agentCard(cardInterfaces(options.baseUrl, options));
    const signed = await signServedCard(unsigned, options.baseUrl, signCard);
    return finish(
      createA2AHandler(service, {
        ...options,
        card: signed.card,
        ...(signed.publicJwks === undefined ? {} : { publicJwks: signed.publicJwks }),
      }),
    );
  })();
  let current: HttpHandler | undefined;
  const ready = built.then((handler) => {
    current = handler;
  });
  return { handler: async (req) => (current ?? (await built))(req), ready };
}
