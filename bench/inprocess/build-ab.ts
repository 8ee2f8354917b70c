/**
 * A/B of two builds of a2a-kit on the hot path, without sockets: CPU µs, promises and bytes
 * allocated per echo call through the HTTP handler (JSON-RPC and HTTP+JSON SendMessage, a
 * JSON-RPC SendStreamingMessage read as SSE text; `sse`: the same stream through the node:http
 * listener, `toNodeListener`, written to a stand-in response object, no socket) or
 * `A2AServer.sendMessage` alone. Each figure
 * comes from its own child process, the two builds alternating round by round; medians.
 *
 * Build both (`node bench/build.mjs` here; in a worktree of the other commit,
 * `git worktree add /tmp/base 6914dcf`, `node_modules` symlinked, `node bench/build.mjs` there), then
 * `node dist/bench-run/bench/inprocess/build-ab.js --base=/tmp/base [--rounds=5] [--calls=3000]
 * [--layers=rpc,rest,stream,sse,core]`. Bytes are measured with a young generation large enough
 * that no collection runs while the calls are made (the driver's own requests included).
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

type Layer = 'rpc' | 'rest' | 'stream' | 'sse' | 'core';
type Mode = 'cpu' | 'promises' | 'bytes';

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const here = dirname(fileURLToPath(import.meta.url));
const ownRoot = resolve(here, '../../../..'); // dist/bench-run/bench/inprocess → the checkout

/** One child: loads the build at `root`, runs `calls` calls of `layer`, prints one figure. */
async function worker(root: string, layer: Layer, calls: number, mode: Mode): Promise<number> {
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
  const server = new A2AServer({ agent: kitEcho, logger: null });
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
    core: (n) => server.sendMessage(echoParams(n), {}),
  };
  const run = async (total: number) => {
    for (let i = 0; i < total; i++) await call[layer](i);
  };
  await run(Math.max(2000, calls)); // warm-up
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
 * One JSON-RPC SendStreamingMessage through a node:http listener, with stand-ins for the request
 * and the response (what the listener uses of them): resolves with the reply when it ended.
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
function child(root: string, layer: Layer, calls: number, mode: Mode): number {
  const flags = mode === 'bytes' ? ['--max-semi-space-size=512', '--min-semi-space-size=512'] : [];
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    [...flags, script, '--worker', root, layer, String(calls), mode],
    {
      encoding: 'utf8',
    },
  );
  return Number(out.trim());
}

if (process.argv[2] === '--worker') {
  const [root, layer, calls, mode] = process.argv.slice(3) as [string, Layer, string, Mode];
  process.stdout.write(`${await worker(root, layer, Number(calls), mode)}\n`);
  process.exit(0);
} else {
  const base = arg('base');
  if (base === undefined) throw new Error('give --base=DIR, a built checkout of the other commit');
  const rounds = Number(arg('rounds') ?? 5);
  const calls = Number(arg('calls') ?? 3000);
  const layers = (arg('layers') ?? 'rpc,rest,stream,core').split(',') as Layer[];
  const builds = { base: resolve(base), this: ownRoot };
  console.log('layer   build   CPU µs/call  promises/call  KB/call');
  for (const layer of layers) {
    const cpu: Record<string, number[]> = { base: [], this: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [name, root] of Object.entries(builds))
        cpu[name]?.push(child(root, layer, calls, 'cpu'));
    }
    for (const [name, root] of Object.entries(builds)) {
      const promises = child(root, layer, 1000, 'promises');
      const bytes = child(root, layer, 1000, 'bytes');
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
