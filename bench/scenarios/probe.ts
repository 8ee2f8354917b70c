/** One real request per target before measuring, so a broken server fails the run loudly. */
import { A2A_HEADERS, sendRequest, type Binding } from '../load/requests.js';

/** Sends one blocking echo over `binding` and checks that the task completed. */
export async function probeSend(name: string, url: string, binding: Binding): Promise<void> {
  const { path, body } = sendRequest(
    binding,
    false,
    `probe-${Date.now()}-${Math.random()}`,
    'hello',
  );
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: A2A_HEADERS, body });
  const text = await res.text();
  if (!res.ok || !text.includes('TASK_STATE_COMPLETED') || !text.includes('echo: hello')) {
    throw new Error(`${name} ${binding} probe failed: HTTP ${res.status} ${text.slice(0, 300)}`);
  }
}
