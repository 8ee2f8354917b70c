/**
 * serve()'s NATS listener: the NATS custom binding (docs/bindings/nats.md) next to the HTTP
 * server, behind the same access control and middleware, listed in the card after the HTTP
 * bindings. The binding is imported on demand, so @nats-io/transport-node stays an optional peer.
 */
import type { CallContext, HttpHeaders, Principal } from '../core/call-context.js';
import type { InternalErrorReporter } from '../core/errors.js';
import { MissingDependencyError } from '../core/missing-dependency.js';
import type { AgentInterface } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import type { AccessControl } from '../security/limits/access-control.js';
import { NATS_BINDING } from '../bindings/nats/wire.js';

/** Where serve() answers over NATS. */
export interface NatsListenOptions {
  /** `nats://host:port` URL(s) (default `nats://127.0.0.1:4222`). */
  servers?: string | readonly string[] | undefined;
  /** The agent's subject prefix (default `a2a`). */
  subject?: string | undefined;
  /** Queue group of the instances serving this agent (default `a2a`). */
  queue?: string | undefined;
  /** The server URL the card advertises (default: the first of `servers`). */
  advertisedServer?: string | undefined;
}

/** What serve() uses of the NATS binding's server module (bindings/nats/server.ts). */
export interface NatsModule {
  serveNats(
    service: A2AService,
    options: NatsListenOptions & {
      onError?: InternalErrorReporter | undefined;
      authenticate?: (headers: HttpHeaders, context: CallContext) => Promise<Principal | undefined>;
    },
  ): Promise<{ readonly url: string; agentInterface(): AgentInterface; close(): Promise<void> }>;
}

/** The NATS binding's server module, or an error that says what to install. */
export async function loadNats(): Promise<NatsModule> {
  try {
    return await import('../bindings/nats/server.js');
  } catch (error) {
    throw new MissingDependencyError(
      {
        packages: ['@nats-io/transport-node'],
        feature: 'Serving the NATS binding',
        install: 'npm install @nats-io/transport-node',
        instead: 'or serve without the nats option',
      },
      error,
    );
  }
}

/** The `authenticate` hook of the NATS listener: `access` reads the request headers. */
export function natsAuthenticate(
  access: AccessControl,
): (headers: HttpHeaders, context: CallContext) => Promise<Principal | undefined> {
  return async (headers, context) => {
    const refusal = await access.admit(
      { binding: NATS_BINDING, headers, query: new URLSearchParams() },
      context,
    );
    if (refusal !== undefined) throw refusal;
    return context.principal;
  };
}
