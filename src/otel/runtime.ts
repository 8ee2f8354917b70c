/**
 * Where a2a-kit's telemetry finds its tracer, meter and propagator: given ones, else the
 * global OpenTelemetry API's. `tracer()` and `metrics()` answer undefined while no SDK is
 * registered, checked per call without allocating, so instrumented code falls through to the
 * plain path: with no SDK the cost is one function call.
 */
import {
  ProxyTracerProvider,
  context,
  metrics as globalMetrics,
  propagation,
  trace,
  type Context,
  type MeterProvider,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { Instruments } from './instruments.js';
import { SCOPE } from './names.js';

/** Options of {@link a2aTelemetry} that say where spans and metrics go. */
export interface TelemetryProviders {
  /** Default: the global tracer provider (the one your SDK registered). */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Default: the global meter provider. */
  readonly meterProvider?: MeterProvider | undefined;
  /** Default: the global propagator (W3C trace context and baggage with NodeSDK). */
  readonly propagator?: TextMapPropagator | undefined;
  /** Instrumentation scope version. */
  readonly version?: string | undefined;
}

/** The tracer, instruments and propagator of one telemetry setup. */
export class TelemetryRuntime {
  private cachedTracer: Tracer | undefined;
  private cachedFor: TracerProvider | undefined;
  private instruments: Instruments | undefined;
  private instrumentsFor: MeterProvider | undefined;
  private noopMeters = false;
  /** What `inject` wrote for each context (contexts are immutable, so the answer never changes). */
  private carriers = new WeakMap<Context, Readonly<Record<string, string>>>();

  constructor(private readonly options: TelemetryProviders) {}

  /** The tracer, or undefined when no tracer provider is registered. */
  tracer(): Tracer | undefined {
    const provider = this.options.tracerProvider ?? trace.getTracerProvider();
    if (provider === this.cachedFor) return this.cachedTracer;
    if (
      provider instanceof ProxyTracerProvider &&
      provider.getDelegateTracer(SCOPE, this.options.version) === undefined
    ) {
      return undefined; // nothing registered yet; not cached, so a later registration counts
    }
    this.cachedFor = provider;
    this.cachedTracer = provider.getTracer(SCOPE, this.options.version);
    return this.cachedTracer;
  }

  /** The instruments, or undefined when no meter provider is registered. */
  metrics(): Instruments | undefined {
    const provider = this.options.meterProvider ?? globalMetrics.getMeterProvider();
    if (provider !== this.instrumentsFor) {
      this.instrumentsFor = provider;
      this.noopMeters = provider.constructor.name === 'NoopMeterProvider';
      this.instruments = this.noopMeters
        ? undefined
        : new Instruments(provider.getMeter(SCOPE, this.options.version));
    }
    return this.instruments;
  }

  /** True when neither traces nor metrics are recorded: the caller takes the plain path. */
  off(): boolean {
    return this.tracer() === undefined && this.metrics() === undefined;
  }

  /** Writes `ctx` into `carrier` (`traceparent`, `tracestate`, `baggage`). */
  inject(ctx: Context, carrier: Record<string, string>): Record<string, string> {
    (this.options.propagator ?? propagation).inject(ctx, carrier, {
      set: (c, key, value) => {
        c[key] = value;
      },
    });
    return carrier;
  }

  /**
   * The trace context of `ctx` as headers (undefined when the propagator writes none), computed
   * once per context and shared: callers must not change it (copy it to add to it).
   */
  carrier(ctx: Context): Readonly<Record<string, string>> | undefined {
    let carried = this.carriers.get(ctx);
    if (carried === undefined) {
      carried = Object.freeze(this.inject(ctx, {}));
      this.carriers.set(ctx, carried);
    }
    for (const _ in carried) return carried;
    return undefined;
  }

  /** True when `carried` is the carrier of the active context (delivered inside its publish). */
  isActiveCarrier(carried: object): boolean {
    return this.carriers.get(context.active()) === carried;
  }

  /**
   * The context `carrier` continues, on top of `base`; `base` itself, with no propagator work,
   * when the carrier has none of the propagator's fields (a request without `traceparent`).
   */
  extract(base: Context, carrier: { get(name: string): string | null | undefined }): Context {
    const propagator = this.options.propagator ?? propagation;
    if (!propagator.fields().some((field) => carrier.get(field) != null)) return base;
    return propagator.extract(base, carrier, {
      get: (c, key) => c.get(key) ?? undefined,
      keys: () => [],
    });
  }

  /** The active context (AsyncLocalStorage, when a context manager is registered). */
  active(): Context {
    return context.active();
  }

  /** Runs `fn` with `ctx` active. */
  within<T>(ctx: Context, fn: () => T): T {
    return context.with(ctx, fn);
  }
}

/** A promise rejected with `error` (what an async function makes of a synchronous throw). */
export async function rejected(error: unknown): Promise<never> {
  throw error;
}
