/**
 * The load side of the over-HTTP variants of inprocess/otel.ts, in its own process (so its CPU
 * is not counted): on each `send` command, `total` blocking JSON-RPC SendMessage requests to
 * the given port, `concurrency` at a time on keep-alive connections, each with a fresh message
 * id; answers when all have completed.
 */
import { Agent, request } from 'node:http';
import { serveRpc } from '../ipc.js';
import { A2A_HEADERS, sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';

const agents = new Map<number, Agent>();

function post(agent: Agent, port: number): Promise<void> {
  const { path, body } = sendRequest('jsonrpc', false, nextMessageId(), 'hello');
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, port, host: '127.0.0.1', method: 'POST', path, headers: A2A_HEADERS },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          text.includes('TASK_STATE_COMPLETED')
            ? resolve()
            : reject(new Error(`not a completed echo task: ${text.slice(0, 200)}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

serveRpc({
  send: async (arg: { port: number; total: number; concurrency: number }) => {
    let agent = agents.get(arg.port);
    if (agent === undefined) {
      agent = new Agent({ keepAlive: true, maxSockets: arg.concurrency });
      agents.set(arg.port, agent);
    }
    let n = 0;
    await Promise.all(
      Array.from({ length: arg.concurrency }, async () => {
        while (n++ < arg.total) await post(agent, arg.port);
      }),
    );
    return null;
  },
});
