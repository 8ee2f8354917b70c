/**
 * The interfaces a client may use and the one it uses (spec §8.3.2): transports are created on
 * first use; until an interface has answered once, an unreachable one (connection refused, DNS,
 * 5xx from a gateway) hands the call to the next candidate in the card's order (§5.2, [25]).
 * Once an interface has answered, the client sticks to it.
 */
import { majorMinor, PROTOCOL_VERSION } from '../core/interfaces.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import { isUnreachable } from './policy.js';
import { candidateInterfaces } from './select.js';
import type { ClientTransport, StreamItem, TransportOptions } from '../transport/transport.js';

/** Builds the transport of one binding for one interface. */
export type TransportFactory = (options: TransportOptions) => ClientTransport;

/** Options of an {@link InterfacePool}. */
export interface InterfacePoolOptions {
  /** Factories by binding; only these bindings are considered. */
  transports: Readonly<Record<string, TransportFactory>>;
  /** Restricts the bindings considered (default: every factory). */
  bindings?: readonly string[] | undefined;
  preferredBinding?: string | undefined;
  /**
   * Protocol versions in preference order (default `['1.0']`), and the factories of each
   * version other than 1.0 by binding (`{ '0.3': { JSONRPC: … } }`).
   */
  versions?: readonly string[] | undefined;
  versionTransports?: Readonly<Record<string, Readonly<Record<string, TransportFactory>>>>;
  /** Overrides every interface's tenant. */
  tenant?: string | undefined;
  /** Everything else the transports get. */
  transport: Omit<TransportOptions, 'url' | 'tenant'>;
}

/** Candidate interfaces in preference order, with the one in use. */
export class InterfacePool {
  readonly candidates: readonly AgentInterface[];
  private readonly transports: (ClientTransport | undefined)[];
  private active = 0;
  private confirmed = false;

  /** Throws IncompatibleAgentError when no interface of `card` can be used. */
  constructor(
    card: Pick<AgentCard, 'supportedInterfaces'>,
    private readonly options: InterfacePoolOptions,
  ) {
    const factories = options.transports;
    const bindings = (options.bindings ?? Object.keys(factories)).filter((b) => factories[b]);
    const bindingsAt: Record<string, string[]> = {};
    // As at 1.0, `preferredBinding` also picks a binding outside the default ones (GRPC).
    for (const [version, byBinding] of Object.entries(options.versionTransports ?? {})) {
      bindingsAt[version] = Object.keys(byBinding).filter(
        (b) =>
          options.bindings === undefined ||
          options.bindings.includes(b) ||
          b === options.preferredBinding,
      );
    }
    this.candidates = candidateInterfaces(card, {
      bindings,
      preferredBinding: options.preferredBinding,
      versions: options.versions,
      bindingsAt,
    });
    this.transports = this.candidates.map(() => undefined);
  }

  /** The interface in use (the first candidate until one has answered). */
  get selected(): AgentInterface {
    return this.candidates[this.active] as AgentInterface;
  }

  /** The transport of the interface in use. */
  get transport(): ClientTransport {
    return this.transportAt(this.active);
  }

  /** Runs a unary attempt, falling through unreachable interfaces until one has answered. */
  async run<T>(attempt: (transport: ClientTransport) => Promise<T>): Promise<T> {
    for (let index = this.active; ; index++) {
      try {
        const result = await attempt(this.transportAt(index));
        this.confirm(index);
        return result;
      } catch (error) {
        if (this.confirmed || !isUnreachable(error) || index + 1 >= this.candidates.length) {
          if (!isUnreachable(error)) this.confirm(index);
          throw error;
        }
      }
    }
  }

  /** Opens a stream, falling through unreachable interfaces before its first event. */
  async *stream(
    open: (transport: ClientTransport) => AsyncIterable<StreamItem>,
  ): AsyncGenerator<StreamItem> {
    for (let index = this.active; ; index++) {
      let received = false;
      try {
        for await (const item of open(this.transportAt(index))) {
          if (!received) this.confirm(index);
          received = true;
          yield item;
        }
        this.confirm(index);
        return;
      } catch (error) {
        const fallThrough =
          !received &&
          !this.confirmed &&
          isUnreachable(error) &&
          index + 1 < this.candidates.length;
        if (!fallThrough) {
          if (!isUnreachable(error)) this.confirm(index);
          throw error;
        }
      }
    }
  }

  /** Closes the transports that hold resources (gRPC channels). */
  close(): void {
    for (const t of this.transports) t?.close?.();
  }

  private transportAt(index: number): ClientTransport {
    const existing = this.transports[index];
    if (existing) return existing;
    const iface = this.candidates[index] as AgentInterface;
    const version = majorMinor(iface.protocolVersion);
    const factories =
      version === PROTOCOL_VERSION
        ? this.options.transports
        : (this.options.versionTransports?.[version] ?? {});
    const factory = factories[iface.protocolBinding] as TransportFactory;
    const tenant = this.options.tenant ?? iface.tenant;
    const transport = factory({ ...this.options.transport, url: iface.url, tenant });
    this.transports[index] = transport;
    return transport;
  }

  private confirm(index: number): void {
    if (this.confirmed) return;
    this.confirmed = true;
    this.active = index;
  }
}
