/**
 * The artifact viewers: `view_text_artifact` pages through a text artifact by lines and
 * `view_data_artifact` walks a data artifact by JSON Pointer (RFC 6901) with a window of array
 * items or object keys, so a model reads a large artifact a page at a time. Each page says where
 * the next one starts.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../core/parts.js';
import type { Artifact, Task } from '../core/schemas/index.js';

/** Longest line of a page: longer lines are wrapped, so one huge line still pages. */
export const WRAP_CHARS = 500;

/** The lines a text is paged by: its lines, each wrapped at {@link WRAP_CHARS} characters. */
export function displayLines(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (line.length <= WRAP_CHARS) return [line];
    const pieces: string[] = [];
    for (let i = 0; i < line.length; i += WRAP_CHARS) pieces.push(line.slice(i, i + WRAP_CHARS));
    return pieces;
  });
}

/** Arguments of both viewers (validated by the caller's input schema, checked again here). */
export interface ViewArgs {
  artifactId?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  path?: string | undefined;
}

const error = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

function pick(task: Task, artifactId: string | undefined, want: (a: Artifact) => boolean) {
  const artifacts = task.artifacts ?? [];
  const found = artifactId
    ? artifacts.find((a) => a.artifactId === artifactId)
    : artifacts.find(want);
  if (found) return found;
  const ids = artifacts.map((a) => a.artifactId).join(', ') || 'none';
  return `Task ${task.id} has no ${artifactId ? `artifact "${artifactId}"` : 'such artifact'} (artifacts: ${ids}).`;
}

function window(
  offset: number | undefined,
  limit: number | undefined,
  fallback: number,
  max: number,
) {
  const start = Math.max(0, Math.floor(offset ?? 0));
  const size = Math.min(max, Math.max(1, Math.floor(limit ?? fallback)));
  return { start, size };
}

/** One page of lines of a text artifact. */
export function viewText(task: Task, args: ViewArgs): CallToolResult {
  const artifact = pick(task, args.artifactId, (a) =>
    a.parts.some((p) => typeof p.text === 'string'),
  );
  if (typeof artifact === 'string') return error(artifact);
  const lines = displayLines(textOf(artifact));
  const { start, size } = window(args.offset, args.limit, 100, 1000);
  const end = Math.min(lines.length, start + size);
  const next =
    end < lines.length
      ? `next page: view_text_artifact {"taskId": "${task.id}", "artifactId": "${artifact.artifactId}", "offset": ${end}}`
      : 'end of artifact';
  return {
    content: [
      { type: 'text', text: lines.slice(start, end).join('\n') },
      { type: 'text', text: `[lines ${start}..${end - 1} of ${lines.length}; ${next}]` },
    ],
    structuredContent: {
      artifactId: artifact.artifactId,
      totalLines: lines.length,
      offset: start,
      ...(end < lines.length ? { nextOffset: end } : {}),
    },
  };
}

/** The value at a JSON Pointer, or a message saying why there is none. */
function at(value: unknown, pointer: string): { value: unknown } | string {
  if (pointer === '' || pointer === '/') return { value };
  if (!pointer.startsWith('/'))
    return `path must be a JSON Pointer starting with "/" (got "${pointer}")`;
  let here = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(here) && /^\d+$/.test(key) && Number(key) < here.length)
      here = here[Number(key)];
    else if (here !== null && typeof here === 'object' && Object.hasOwn(here, key)) {
      here = (here as Record<string, unknown>)[key];
    } else return `nothing at ${pointer} (no "${key}")`;
  }
  return { value: here };
}

/** A window of a data artifact: array items or object entries at `path`; scalars whole. */
export function viewData(task: Task, args: ViewArgs): CallToolResult {
  const artifact = pick(task, args.artifactId, (a) => a.parts.some((p) => p.data !== undefined));
  if (typeof artifact === 'string') return error(artifact);
  const data = artifact.parts.find((p) => p.data !== undefined)?.data;
  if (data === undefined) return error(`Artifact ${artifact.artifactId} has no data part.`);
  const path = args.path ?? '';
  const found = at(data, path);
  if (typeof found === 'string') return error(found);
  const { start, size } = window(args.offset, args.limit, 20, 500);
  const value = found.value;
  let page: unknown = value;
  let total: number | undefined;
  if (Array.isArray(value)) {
    total = value.length;
    page = value.slice(start, start + size);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    total = entries.length;
    page = Object.fromEntries(entries.slice(start, start + size));
  }
  const end = total === undefined ? undefined : Math.min(total, start + size);
  const next =
    end !== undefined && total !== undefined && end < total
      ? `; next page: view_data_artifact {"taskId": "${task.id}", "artifactId": "${artifact.artifactId}", "path": ${JSON.stringify(path)}, "offset": ${end}}`
      : '';
  const shape =
    total === undefined
      ? 'a single value'
      : `${Array.isArray(value) ? 'items' : 'keys'} ${start}..${(end ?? 0) - 1} of ${total}`;
  return {
    content: [
      { type: 'text', text: JSON.stringify(page, null, 1) },
      { type: 'text', text: `[${path || '/'}: ${shape}${next}]` },
    ],
    structuredContent: {
      artifactId: artifact.artifactId,
      path,
      ...(total !== undefined ? { total, offset: start } : {}),
      ...(end !== undefined && total !== undefined && end < total ? { nextOffset: end } : {}),
    },
  };
}
