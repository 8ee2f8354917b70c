/**
 * The conformance matrix: `verifies([ids], title, body)` registers one test per binding, named
 * `[63,64] blocking send waits for a final state (JSONRPC)`. The numbers are those of
 * test/conformance/requirements.ts (see test/conformance/README.md); coverage.test.ts reads them back from the sources.
 *
 * Tests run inside `serverSuite(...)`, which starts one server for the suite (HTTP and gRPC) and
 * stops it after. A new binding is one more line in DRIVERS (NATS runs when A2A_TEST_NATS_URL is set).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BindingDriver } from './driver.js';
import { grpcDriver } from './grpc-driver.js';
import { natsDriver } from './nats-driver.js';
import { jsonRpcDriver } from './jsonrpc-driver.js';
import { restDriver } from './rest-driver.js';
import { isV03Binding, v03Driver, v03SkipReason } from './v03-driver.js';
import { v03GrpcDriver } from './v03-grpc-driver.js';
import { inConformanceMatrix, NATS_URL, type RunningServer } from './server.js';
import type { BindingName } from './wire.js';

/** Every binding under test, and how to reach it on a running server. */
const DRIVERS: Readonly<Record<BindingName, (server: RunningServer) => BindingDriver>> = {
  JSONRPC: (server) => jsonRpcDriver(server.url),
  'HTTP+JSON': (server) => restDriver(server.url),
  GRPC: (server) => grpcDriver(server.grpcUrl),
  NATS: (server) => natsDriver(server.natsUrl ?? ''),
  // The test servers serve A2A 0.3 too (compat: ['0.3']); spoken through our 0.3 client.
  'JSONRPC 0.3': (server) => v03Driver('JSONRPC 0.3', server.url),
  'HTTP+JSON 0.3': (server) => v03Driver('HTTP+JSON 0.3', server.url),
  'GRPC 0.3': (server) => v03GrpcDriver(server.grpcUrl),
};

/** The bindings every matrix test runs on: NATS only when a NATS server is configured. */
export const BINDINGS = (Object.keys(DRIVERS) as BindingName[]).filter(
  (b) => b !== 'NATS' || NATS_URL !== undefined,
);
if (NATS_URL === undefined && !warned()) {
  console.warn(
    '!! The NATS binding is NOT in the conformance matrix: set A2A_TEST_NATS_URL (e.g. nats://127.0.0.1:4222) to run it.',
  );
}

/**
 * The 1.0 bindings: those of the suites outside test/conformance (see inConformanceMatrix), and
 * of the few conformance tests comparing every binding on something 0.3 has not (version
 * negotiation, ListTasks), each saying so where it uses this.
 */
export const V1_BINDINGS = BINDINGS.filter((b) => !isV03Binding(b));

/** Warns once per process. */
function warned(): boolean {
  const g = globalThis as { __a2aNatsWarned?: boolean };
  const before = g.__a2aNatsWarned === true;
  g.__a2aNatsWarned = true;
  return before;
}

/** The server of the enclosing `serverSuite`, usable once its `beforeAll` has run. */
export interface SuiteServer {
  readonly url: string;
  readonly running: RunningServer;
  driver(binding: BindingName): BindingDriver;
  /** The bindings this suite's server serves (default: {@link BINDINGS} in test/conformance, else {@link V1_BINDINGS}). */
  readonly bindings: readonly BindingName[];
}

/** Options of one matrix test. */
export interface VerifyOptions {
  /** Run on these bindings only (binding-specific requirements). */
  only?: readonly BindingName[];
  /** Known server bug on these bindings: registered with `it.fails`, so a fix flips it loudly. */
  fails?: readonly BindingName[];
  timeout?: number;
}

let current: SuiteServer | undefined;

/**
 * Starts `start()` before the suite's tests and closes it after; `body` registers tests with
 * {@link verifies} against that server. `bindings`: the ones that server serves, when it is not
 * every binding (a product such as the TCK agent, whose card lists exactly what it serves).
 */
export function serverSuite(
  name: string,
  start: () => Promise<RunningServer>,
  body: (server: SuiteServer) => void,
  bindings: readonly BindingName[] = inConformanceMatrix() ? BINDINGS : V1_BINDINGS,
): void {
  describe(name, () => {
    let running: RunningServer | undefined;
    const drivers = new Map<BindingName, BindingDriver>();
    const server: SuiteServer = {
      get running() {
        if (!running) throw new Error('server not started: use it inside a test');
        return running;
      },
      get url() {
        return server.running.url;
      },
      bindings,
      driver: (binding) => {
        const driver = drivers.get(binding) ?? DRIVERS[binding](server.running);
        drivers.set(binding, driver);
        return driver;
      },
    };
    beforeAll(async () => {
      running = await start();
    });
    afterAll(async () => {
      for (const driver of drivers.values()) driver.close?.();
      drivers.clear();
      await running?.close();
    });
    const outer = current;
    current = server;
    try {
      body(server);
    } finally {
      current = outer;
    }
  });
}

/** One test per binding, citing requirement numbers (test/conformance/requirements.ts) `ids`. */
export function verifies(
  ids: readonly number[],
  title: string,
  body: (b: BindingDriver) => Promise<void>,
  options: VerifyOptions = {},
): void {
  const server = suiteServer();
  for (const binding of options.only ?? server.bindings) {
    const reason = isV03Binding(binding) ? v03SkipReason(ids, title, binding) : undefined;
    if (reason !== undefined) {
      // Listed in the 0.3 driver as 1.0-only: skipped, saying why.
      it.skip(`[${ids.join(',')}] ${title} (${binding}) [1.0 only: ${reason}]`, () => undefined);
      continue;
    }
    const test = options.fails?.includes(binding) ? it.fails : it;
    test(
      `[${ids.join(',')}] ${title} (${binding})`,
      () => body(server.driver(binding)),
      options.timeout,
    );
  }
}

/** One binding-independent test (the card endpoint, HTTP framing), citing requirement numbers (test/conformance/requirements.ts). */
export function verifiesServer(
  ids: readonly number[],
  title: string,
  body: (server: SuiteServer) => Promise<void>,
  options: Pick<VerifyOptions, 'timeout'> & { fails?: boolean } = {},
): void {
  const server = suiteServer();
  const test = options.fails ? it.fails : it;
  test(`[${ids.join(',')}] ${title}`, () => body(server), options.timeout);
}

function suiteServer(): SuiteServer {
  if (!current) throw new Error('verifies() must be called inside serverSuite()');
  return current;
}
