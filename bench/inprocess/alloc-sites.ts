/**
 * Where the bytes of one echo call are allocated: a sampling heap profile (every object, the ones
 * scavenges collected included) of `calls` calls made one at a time after as many to warm up,
 * its bytes summed by allocating function and printed per call, largest first. The layers are
 * build-ab.ts's: `rpc` and `rest` (the HTTP handler), `stream` (SSE text), `core`
 * (`A2AServer.sendMessage`). The driver's own requests are included, as in the layers scenario.
 *
 * `node bench/build.mjs && node dist/bench-run/bench/inprocess/alloc-sites.js [layer] [calls]
 * [top]`; with `--no-turbo-inlining` before the script, bytes stay with the function that
 * allocates them instead of the one it was inlined into (the total is then a little higher).
 */
import { Session } from 'node:inspector/promises';
import { createA2AHandler } from '../../src/http/index.js';
import { A2AServer } from '../../src/server/index.js';
import { sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const [layer = 'rpc', callsText = '3000', topText = '40'] = process.argv.slice(2);
const calls = Number(callsText);
const server = new A2AServer({ agent: kitEcho, logger: null });
const handler = createA2AHandler(server);
const headers: Record<string, string> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};

async function http(binding: 'jsonrpc' | 'rest', streaming: boolean): Promise<void> {
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
}

const call: Record<string, (n: number) => Promise<unknown>> = {
  rpc: () => http('jsonrpc', false),
  rest: () => http('rest', false),
  stream: () => http('jsonrpc', true),
  core: (n) => server.sendMessage(echoParams(n), {}),
};
const one = call[layer];
if (one === undefined) throw new Error(`unknown layer ${layer}: rpc, rest, stream or core`);
for (let i = 0; i < calls; i++) await one(i);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 32,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < calls; i++) await one(i);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
  profile: { head: ProfileNode };
};
const bySite = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode): void => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*dist\/bench-run\//, '');
  const site = `${functionName || '(anonymous)'} ${file}${file ? `:${lineNumber + 1}` : ''}`;
  total += node.selfSize;
  if (node.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`${layer}: ${(total / calls / 1024).toFixed(2)} KB allocated per call`);
const rows = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(topText));
for (const [site, bytes] of rows)
  console.log(`${(bytes / calls).toFixed(0).padStart(6)} B  ${site}`);
