/** Small display helpers shared by the views: task states, times, durations, part text. */

/** Terminal task states (spec §4.1.3): a stream on them has ended. */
export const TERMINAL = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
/** Interrupted states: the agent waits for the user (input) or for authorization. */
export const INTERRUPTED = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateLabel(state: string | undefined): string {
  return (state ?? '')
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/** `12:03:04.123` */
export function clock(time: number): string {
  const d = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** `+45 ms`, `+1.2 s` */
export function since(ms: number): string {
  return ms < 1000 ? `+${ms} ms` : `+${(ms / 1000).toFixed(1)} s`;
}

/** The text of parts (data parts as JSON, files by name). */
export function partsText(parts: readonly Record<string, unknown>[] | undefined): string {
  return (parts ?? [])
    .map((p) =>
      typeof p.text === 'string'
        ? p.text
        : p.data !== undefined
          ? JSON.stringify(p.data)
          : `[file ${typeof p.filename === 'string' ? p.filename : ((p.url ?? 'bytes') as string)}]`,
    )
    .join('');
}
