/**
 * The cost of the audit chain (A2AServerOptions.audit, docs/trust.md), in process (no sockets, so
 * nothing hides it): CPU time per echo task with audit off and on, through `A2AServer.sendMessage`
 * and through the HTTP handler (JSON-RPC SendMessage). The `audit` scenario of `npm run bench`
 * runs it (scenarios/audit.ts); bench/inprocess/audit-ab.ts is the same A/B as one command.
 */
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { A2AServer } from '../../src/server/index.js';
import { serveRpc } from '../ipc.js';
import { sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

/** CPU µs per call of each variant. */
export interface AuditResult {
  variant: string;
  cpuMicros: number;
}

const off = new A2AServer({ agent: kitEcho, logger: null });
const on = new A2AServer({ agent: kitEcho, logger: null, audit: true });
const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};
function request(): HttpRequest {
  const { path, body } = sendRequest('jsonrpc', false, nextMessageId(), 'hello');
  return { method: 'POST', url: path, headers: { get: (name) => HEADERS[name] ?? null }, body };
}
async function check(response: HttpResponse): Promise<void> {
  if (typeof response.body !== 'string' || !response.body.includes('TASK_STATE_COMPLETED')) {
    throw new Error('not a completed echo task');
  }
}
const handlers = { off: createA2AHandler(off), on: createA2AHandler(on) };
let n = 0;

const VARIANTS: Record<string, () => Promise<unknown>> = {
  'sendMessage, audit off': () => off.sendMessage(echoParams(n++), {}),
  'sendMessage, audit on': () => on.sendMessage(echoParams(n++), {}),
  'HTTP JSON-RPC SendMessage, audit off': async () => check(await handlers.off(request())),
  'HTTP JSON-RPC SendMessage, audit on': async () => check(await handlers.on(request())),
};

async function run(variant: string, total: number, concurrency: number): Promise<number> {
  const fn = VARIANTS[variant];
  if (fn === undefined) throw new Error(`unknown variant ${variant}`);
  let done = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (done++ < total) await fn();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / total;
}

serveRpc({
  variants: () => Object.keys(VARIANTS),
  measure: async (arg: { variant: string; calls: number; concurrency: number }) => {
    await run(arg.variant, Math.ceil(arg.calls / 4), arg.concurrency); // warm-up
    return { variant: arg.variant, cpuMicros: await run(arg.variant, arg.calls, arg.concurrency) };
  },
});
