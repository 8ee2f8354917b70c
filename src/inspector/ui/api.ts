/**
 * The page's side of the inspector API (src/inspector/api.ts): JSON calls with the inspector
 * header, and streams read from the SSE relay. Credentials are sent once to the local server and
 * never kept in the page or in browser storage.
 */

/** An error as the inspector's server reports it. */
export interface CallError {
  kind: string;
  code?: string;
  status?: number;
  message: string;
  needsAuth: boolean;
}

const HEADERS = { 'x-a2a-inspector': '1', 'content-type': 'application/json' };

/** The API base: the page's own directory (`/` or `/inspector/`). */
function base(): string {
  return new URL('api/', document.baseURI).pathname;
}

/** GET an API path. */
export async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${base()}${path}`, { headers: HEADERS });
  return (await response.json()) as T;
}

/** POST an API path; an `{ error }` answer is thrown as an {@link ApiFailure}. */
export async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { error?: CallError | string } & T;
  if (json.error !== undefined) throw new ApiFailure(json.error);
  return json;
}

/** A failed call, with what the agent (or the inspector) said. */
export class ApiFailure extends Error {
  readonly detail: CallError;
  constructor(error: CallError | string) {
    const detail =
      typeof error === 'string' ? { kind: 'inspector', message: error, needsAuth: false } : error;
    super(detail.message);
    this.detail = detail;
  }
}

/** Opens a relayed stream; calls `onEvent` per event; resolves at its end, throws its error. */
export async function stream<E>(
  body: unknown,
  onEvent: (event: E) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(`${base()}stream`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (!response.body) throw new ApiFailure('no stream body');
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const json = (await response.json()) as { error?: string };
    throw new ApiFailure(json.error ?? `HTTP ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    pending += value;
    const frames = pending.split('\n\n');
    pending = frames.pop() ?? '';
    for (const frame of frames) {
      const data = frame.replace(/^data: /, '');
      const item = JSON.parse(data) as { event?: E; end?: true; error?: CallError };
      if (item.error) throw new ApiFailure(item.error);
      if (item.end) return;
      if (item.event !== undefined) onEvent(item.event);
    }
  }
}
