/**
 * A/B of two builds of a2a-kit on the hot path, without sockets: CPU µs, promises and bytes
 * allocated per echo call through the HTTP handler (JSON-RPC and HTTP+JSON SendMessage, a
 * JSON-RPC SendStreamingMessage read as SSE text; `sse`: the same stream through the node:http
 * listener, `toNodeListener`, written to a stand-in response object, no socket; `node`: a
 * blocking JSON-RPC SendMessage the same way) or
 * `A2AServer.sendMessage` alone. Each figure
 * comes from its own child process, the two builds alternating round by round; medians.
 *
 * Build both (`node bench/build.mjs` here; in a worktree of the other commit,
 * `git worktree add /tmp/base 6914dcf`, `node_modules` symlinked, `node bench/build.mjs` there), then
 * `node dist/bench-run/bench/inprocess/build-ab.js --base=/tmp/base [--rounds=5] [--calls=3000]
 * [--layers=rpc,rest,stream,sse,node,core] [--concurrency=1] [--warmup=N] [--audit]`. With `--audit`, each
 * build runs twice, audit off and on (A2AServerOptions.audit), all four alternating, and the audit
 * on/off ratio of each is printed (issue 20 point 2). Bytes are measured with a young
 * generation large enough that no collection runs while the calls are made (the driver's own
 * requests included). `--concurrency=50 --warmup=11000` puts each child where a server under the
 * send benchmark is: 50 calls in flight, and past the memory store's 10,000 finished tasks, so
 * that evicting the oldest task is part of every call (default: one call at a time, a warm-up of
 * max(2000, calls), no eviction).
 */
import { execFileSync } from 'node:child_process';
import { createHook } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type * as HttpModule from '../../src/http/index.js';
import type * as ServerModule from '../../src/server/index.js';
import type * as ListenerModule from '../../src/node/listener.js';
import type * as RequestsModule from '../load/requests.js';
import type * as SseLoadModule from '../load/sse-load.js';
import type * as KitAgentModule from '../servers/kit-agent.js';
import type * as SeedModule from '../servers/seed.js';

type Layer = 'rpc' | 'rest' | 'stream' | 'sse' | 'node' | 'core';
type Mode = 'cpu' | 'promises' | 'bytes';

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const here = dirname(fileURLToPath(import.meta.url));
const ownRoot = resolve(here, '../../../..'); // dist/bench-run/bench/inprocess → the checkout

/** How a child drives its calls. */
interface Drive {
  /** Calls in flight at once. */
  concurrency: number;
  /** Unmeasured calls first. */
  warmup: number;
  /** With the audit chain (A2AServerOptions.audit). */
  audit?: boolean;
}

/** One child: loads the build at `root`, runs `calls` calls of `layer`, prints one figure. */
async function worker(
  root: string,
  layer: Layer,
  calls: number,
  mode: Mode,
  drive: Drive,
): Promise<number> {
  const dist = join(root, 'dist/bench-run');
  const { createA2AHandler } = (await import(join(dist, 'src/http/index.js'))) as typeof HttpModule;
  const { A2AServer } = (await import(join(dist, 'src/server/index.js'))) as typeof ServerModule;
  const { sendRequest } = (await import(
    join(dist, 'bench/load/requests.js')
  )) as typeof RequestsModule;
  const { nextMessageId } = (await import(
    join(dist, 'bench/load/sse-load.js')
  )) as typeof SseLoadModule;
  const { kitEcho } = (await import(
    join(dist, 'bench/servers/kit-agent.js')
  )) as typeof KitAgentModule;
  const { echoParams } = (await import(join(dist, 'bench/servers/seed.js'))) as typeof SeedModule;
  const audit = drive.audit === true;
  const server = new A2AServer({ agent: kitEcho, logger: null, ...(audit ? { audit } : {}) });
  const handler = createA2AHandler(server);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'a2a-version': '1.0',
  };
  const http = async (binding: 'jsonrpc' | 'rest', streaming: boolean) => {
    const { path, body } = sendRequest(binding, streaming, nextMessageId(), 'hello');
    const response = await handler({
      method: 'POST',
      url: path,
      headers: { get: (n) => headers[n] ?? null },
      body,
    });
    let text = '';
    if (typeof response.body === 'string') text = response.body;
    else if (response.body) for await (const chunk of response.body) text += String(chunk);
    if (!text.includes('TASK_STATE_COMPLETED')) throw new Error(`not completed: ${text}`);
  };
  const { toNodeListener } = (await import(
    join(dist, 'src/node/listener.js')
  )) as typeof ListenerModule;
  const listener = toNodeListener(handler);
  const call: Record<Layer, (n: number) => Promise<unknown>> = {
    rpc: () => http('jsonrpc', false),
    rest: () => http('rest', false),
    stream: () => http('jsonrpc', true),
    sse: () => listened(listener, sendRequest('jsonrpc', true, nextMessageId(), 'hello')),
    node: () => listened(listener, sendRequest('jsonrpc', false, nextMessageId(), 'hello')),
    core: (n) => server.sendMessage(echoParams(n), {}),
  };
  let next = 0;
  const run = async (total: number) => {
    const end = next + total;
    const lane = async () => {
      while (next < end) await call[layer](next++);
    };
    await Promise.all(Array.from({ length: drive.concurrency }, lane));
  };
  await run(drive.warmup);
  if (mode === 'cpu') {
    const start = process.cpuUsage();
    await run(calls);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  }
  if (mode === 'promises') {
    let count = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'PROMISE') count++;
      },
    }).enable();
    await run(calls);
    hook.disable();
    return count / calls;
  }
  const before = v8.getHeapStatistics().used_heap_size;
  await run(calls);
  return (v8.getHeapStatistics().used_heap_size - before) / calls;
}

/**
 * One JSON-RPC request (a SendStreamingMessage, or a blocking SendMessage) through a node:http
 * listener, with stand-ins for the request and the response (what the listener uses of them):
 * resolves with the reply when it ended.
 */
function listened(
  listener: (req: never, res: never) => void,
  { path, body }: { path: string; body: string },
): Promise<string> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = new EventEmitter() as EventEmitter & Record<string, unknown>;
    Object.assign(req, {
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        accept: 'text/event-stream',
        'content-length': String(bytes.length),
      },
      socket: { remoteAddress: '127.0.0.1' },
      pause: () => req,
    });
    let text = '';
    const res = new EventEmitter() as EventEmitter & Record<string, unknown>;
    Object.assign(res, {
      destroyed: false,
      writableFinished: false,
      writableNeedDrain: false,
      headersSent: false,
      writeHead: () => res,
      flushHeaders: () => undefined,
      setTimeout: () => res,
      destroy: () => reject(new Error('destroyed')),
      write: (chunk: string) => ((text += chunk), true),
      end: (chunk?: string) => {
        if (chunk !== undefined) text += chunk;
        res.writableFinished = true;
        res.emit('close');
        if (!text.includes('TASK_STATE_COMPLETED')) reject(new Error(`not completed: ${text}`));
        else resolve(text);
      },
    });
    listener(req as never, res as never);
    req.emit('data', bytes);
    req.emit('end');
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** One figure from a fresh child process. */
function child(root: string, layer: Layer, calls: number, mode: Mode, drive: Drive): number {
  const flags = mode === 'bytes' ? ['--max-semi-space-size=512', '--min-semi-space-size=512'] : [];
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    [
      ...flags,
      script,
      '--worker',
      root,
      layer,
      String(calls),
      mode,
      String(drive.concurrency),
      String(drive.warmup),
      drive.audit ? 'audit' : 'plain',
    ],
    {
      encoding: 'utf8',
    },
  );
  return Number(out.trim());
}

if (process.argv[2] === '--worker') {
  const [root, layer, calls, mode, concurrency, warmup, audit] = process.argv.slice(3) as [
    string,
    Layer,
    string,
    Mode,
    string,
    string,
    string,
  ];
  const drive = {
    concurrency: Number(concurrency),
    warmup: Number(warmup),
    audit: audit === 'audit',
  };
  process.stdout.write(`${await worker(root, layer, Number(calls), mode, drive)}\n`);
  process.exit(0);
} else {
  const base = arg('base');
  if (base === undefined) throw new Error('give --base=DIR, a built checkout of the other commit');
  const rounds = Number(arg('rounds') ?? 5);
  const calls = Number(arg('calls') ?? 3000);
  const drive: Drive = {
    concurrency: Number(arg('concurrency') ?? 1),
    warmup: Number(arg('warmup') ?? Math.max(2000, calls)),
  };
  const layers = (arg('layers') ?? 'rpc,rest,stream,core').split(',') as Layer[];
  const builds = { base: resolve(base), this: ownRoot };
  if (process.argv.includes('--audit')) {
    auditRounds(builds, layers, rounds, calls, drive);
    process.exit(0);
  }
  console.log('layer   build   CPU µs/call  promises/call  KB/call');
  for (const layer of layers) {
    const cpu: Record<string, number[]> = { base: [], this: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [name, root] of Object.entries(builds))
        cpu[name]?.push(child(root, layer, calls, 'cpu', drive));
    }
    for (const [name, root] of Object.entries(builds)) {
      const promises = child(root, layer, 1000, 'promises', drive);
      const bytes = child(root, layer, 1000, 'bytes', drive);
      console.log(
        `${layer.padEnd(7)} ${name.padEnd(7)} ${median(cpu[name] ?? [])
          .toFixed(1)
          .padStart(
            11,
          )}  ${promises.toFixed(1).padStart(13)}  ${(bytes / 1024).toFixed(1).padStart(7)}`,
      );
    }
    const ratio = median(cpu.this ?? []) / median(cpu.base ?? []);
    console.log(`${layer.padEnd(7)} this/base CPU ${ratio.toFixed(3)}`);
  }
}

/** `--audit`: CPU per call of each build with audit off and on, the four alternating. */
function auditRounds(
  builds: Record<string, string>,
  layers: Layer[],
  rounds: number,
  calls: number,
  drive: Drive,
): void {
  console.log('layer   build   audit off µs  audit on µs  on/off');
  for (const layer of layers) {
    const cpu = new Map<string, number[]>();
    for (let r = 0; r < rounds; r++) {
      for (const [name, root] of Object.entries(builds)) {
        for (const audit of [false, true]) {
          const key = `${name} ${audit}`;
          cpu.set(key, [
            ...(cpu.get(key) ?? []),
            child(root, layer, calls, 'cpu', { ...drive, audit }),
          ]);
        }
      }
    }
    for (const name of Object.keys(builds)) {
      const off = median(cpu.get(`${name} false`) ?? []);
      const on = median(cpu.get(`${name} true`) ?? []);
      console.log(
        `${layer.padEnd(7)} ${name.padEnd(7)} ${off.toFixed(1).padStart(12)}  ${on.toFixed(1).padStart(11)}  ${(on / off).toFixed(3)}`,
      );
    }
  }
}
