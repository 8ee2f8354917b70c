/**
 * A task's timeline: every event the inspector saw for it, with its sequence number, arrival
 * time, SSE id, the state it set, artifact chunks (appended in place above the list) and the
 * time since the previous event; live while the task runs (polled from the inspector's server,
 * or followed with SubscribeToTask). Virtualised: only the rows in view are in the DOM, so a task
 * with 10,000 events scrolls as one with ten.
 */
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post, stream } from './api.js';
import { TERMINAL, clock, since, stateLabel } from './format.js';
import type { Shared, Task, TimelineEvent } from './types.js';

/** Height of one row in px (styles.css `.tl-row` uses the same). */
export const ROW_HEIGHT = 28;
const VIEW_ROWS = 16;
const OVERSCAN = 6;

/** The timeline of `taskId`. */
export function TimelineView({ taskId, shared }: { taskId: string; shared: Shared }) {
  const [events, setEvents] = useState<TimelineEvent[]>([]);
  const [task, setTask] = useState<Task | null>(null);
  const [scroll, setScroll] = useState(0);
  const [following, setFollowing] = useState(false);
  const [error, setError] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const all = useRef<TimelineEvent[]>([]);
  const artifacts = useRef(new Map<string, string>());
  const [, setVersion] = useState(0);

  const absorb = (fresh: TimelineEvent[]) => {
    if (fresh.length === 0) return;
    for (const e of fresh) {
      if (e.seq <= (all.current[all.current.length - 1]?.seq ?? 0)) continue;
      all.current.push(e);
      if (e.kind === 'artifact' && e.artifactId) {
        const before = e.append ? (artifacts.current.get(e.artifactId) ?? '') : '';
        artifacts.current.set(e.artifactId, before + e.text);
      }
    }
    setEvents(all.current.slice());
    setVersion((v) => v + 1);
  };

  const last = () => all.current[all.current.length - 1];
  const done = () => {
    const state = [...all.current].reverse().find((e) => e.state)?.state ?? task?.status.state;
    return state !== undefined && TERMINAL.has(state);
  };

  useEffect(() => {
    let stop = false;
    const poll = async () => {
      while (!stop) {
        const { events: fresh } = await get<{ events: TimelineEvent[] }>(
          `timeline?taskId=${encodeURIComponent(taskId)}&after=${last()?.seq ?? 0}`,
        );
        absorb(fresh);
        if (fresh.length >= 5000) continue; // more waiting: fetch on at once
        if (done()) break;
        await new Promise((r) => setTimeout(r, 400));
      }
    };
    void post<{ result: Task }>('call', {
      operation: 'getTask',
      params: { id: taskId },
      binding: shared.binding,
    })
      .then(({ result }) => setTask(result))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    void poll();
    return () => {
      stop = true;
    };
  }, [taskId]);

  const follow = async () => {
    setFollowing(true);
    try {
      await stream<TimelineEvent>(
        { operation: 'subscribeToTask', params: { id: taskId }, binding: shared.binding },
        () => undefined,
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setFollowing(false);
    }
  };

  const first = Math.max(0, Math.floor(scroll / ROW_HEIGHT) - OVERSCAN);
  const end = Math.min(events.length, first + VIEW_ROWS + 2 * OVERSCAN);
  const rows = events.slice(first, end);
  const state = task?.status.state;
  return h('section', { class: 'timeline', 'aria-label': `Timeline of task ${taskId}` }, [
    h('h3', null, ['Timeline of ', h('code', null, taskId)]),
    h('p', { class: 'dim', 'data-count': String(events.length) }, [
      `${events.length} event(s) seen by the inspector`,
      state ? ` · task ${stateLabel(state)} (GetTask)` : '',
      events.length > 1
        ? ` · ${since((last()?.time ?? 0) - (events[0]?.time ?? 0)).slice(1)} from first to last`
        : '',
    ]),
    state && !TERMINAL.has(state) && !following
      ? h(
          'button',
          { type: 'button', onClick: () => void follow() },
          'Follow live (SubscribeToTask)',
        )
      : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    artifacts.current.size
      ? h(
          'div',
          { class: 'artifacts' },
          [...artifacts.current.entries()].map(([id, text]) =>
            h('div', { class: 'artifact', 'data-artifact': id }, [
              h('strong', null, id),
              h('p', null, text),
            ]),
          ),
        )
      : null,
    h(
      'div',
      {
        class: 'tl-box',
        ref: box,
        tabIndex: 0,
        role: 'list',
        'aria-label': 'Events',
        style: { height: `${VIEW_ROWS * ROW_HEIGHT}px` },
        onScroll: (e: Event) => setScroll((e.target as HTMLDivElement).scrollTop),
      },
      h(
        'div',
        { class: 'tl-space', style: { height: `${events.length * ROW_HEIGHT}px` } },
        rows.map((e) =>
          h(
            'div',
            {
              key: e.seq,
              class: `tl-row ${e.kind}`,
              role: 'listitem',
              'data-seq': String(e.seq),
              style: { top: `${(e.seq - 1) * ROW_HEIGHT}px` },
            },
            [
              h('span', { class: 'seq' }, `#${e.seq}`),
              h('span', { class: 'time' }, clock(e.time)),
              h('span', { class: 'delta' }, since(e.sinceMs)),
              h('span', { class: 'kind' }, e.kind),
              h(
                'span',
                { class: 'what' },
                e.kind === 'artifact'
                  ? `${e.artifactId ?? ''}${e.append ? ' +append' : ''}${e.lastChunk ? ' last' : ''}`
                  : stateLabel(e.state),
              ),
              h('span', { class: 'text', title: e.text }, e.text),
              e.sseId !== undefined ? h('span', { class: 'dim sse' }, `id ${e.sseId}`) : null,
            ],
          ),
        ),
      ),
    ),
  ]);
}
