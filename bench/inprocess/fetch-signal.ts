/**
 * What an abort signal costs a fetch call, without sockets (issue 16 point 6): fetch builds a
 * Request per call, and a Request given a signal follows it (a listener added to the signal, a
 * weak reference and a finalizer that removes the listener once the request is collected). This
 * times `new Request` for a small JSON-RPC POST with no signal, with a signal of its own per
 * call, with `AbortSignal.timeout`, and with one signal shared by 8, 32 or 1,000 calls, plus the
 * pieces (making a signal, a timer), interleaved in rounds; prints ns of CPU per call, medians.
 * Run: `node bench/build.mjs && node dist/bench-run/bench/inprocess/fetch-signal.js [N]
 * [ROUNDS]` (N calls per variant and round, default 20,000; 7 rounds).
 */
import { setMaxListeners } from 'node:events';

const URL_ = 'http://127.0.0.1:1/a2a/jsonrpc';
const HEADERS = {
  accept: 'application/json',
  'a2a-version': '1.0',
  'content-type': 'application/json',
};
const BODY =
  '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":' +
  '{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}';

/** A signal shared by `uses` calls, then a fresh one (as src/transport/deadline-signal.ts). */
function sharedBy(uses: number): () => AbortSignal {
  let controller = new AbortController();
  let given = 0;
  return () => {
    if (given >= uses) {
      controller = new AbortController();
      setMaxListeners(uses + 1, controller.signal);
      given = 0;
    }
    given++;
    return controller.signal;
  };
}

const post = (signal?: AbortSignal) =>
  new Request(URL_, {
    method: 'POST',
    headers: HEADERS,
    body: BODY,
    ...(signal ? { signal } : {}),
  });
const shared8 = sharedBy(8);
const shared32 = sharedBy(32);
const shared1000 = sharedBy(1000);

const VARIANTS: Record<string, () => unknown> = {
  'Request, no signal': () => post(),
  'Request, own AbortController': () => post(new AbortController().signal),
  'Request, AbortSignal.timeout': () => post(AbortSignal.timeout(30_000)),
  'Request, signal shared by 8': () => post(shared8()),
  'Request, signal shared by 32': () => post(shared32()),
  'Request, signal shared by 1000': () => post(shared1000()),
  'Request without body, no signal': () => new Request(URL_, { method: 'POST', headers: HEADERS }),
  'new AbortController().signal': () => new AbortController().signal,
  'AbortSignal.timeout': () => AbortSignal.timeout(30_000),
  'setTimeout + clearTimeout': () => clearTimeout(setTimeout(() => undefined, 30_000)),
};

const calls = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 7);
const names = Object.keys(VARIANTS);
const samples = new Map<string, number[]>(names.map((n) => [n, []]));
const keep: unknown[] = [];
for (let round = 0; round < rounds; round++) {
  for (const name of names.map((_, i) => names[(i + round) % names.length] as string)) {
    const make = VARIANTS[name] as () => unknown;
    for (let i = 0; i < 1000; i++) make();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      const made = make();
      if ((i & 1023) === 0) keep.push(made);
    }
    // The finalizers of the collected requests run here, inside the measurement.
    await new Promise((resolve) => setImmediate(resolve));
    const cpu = process.cpuUsage(cpu0);
    samples.get(name)?.push(((cpu.user + cpu.system) * 1000) / calls);
    keep.length = 0;
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const base = median(samples.get('Request, no signal') ?? []);
for (const name of names) {
  const m = median(samples.get(name) ?? []);
  const extra =
    name.startsWith('Request, ') && m !== base
      ? `  (${m > base ? '+' : ''}${(m - base).toFixed(0)})`
      : '';
  console.log(`${name.padEnd(34)} ${m.toFixed(0).padStart(7)} ns${extra}`);
}
