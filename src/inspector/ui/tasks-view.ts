/**
 * The tasks view: ListTasks (spec §3.1.4) with its filters (context, state, updated after,
 * page size) and pagination (nextPageToken), and the timeline of the task picked.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, post } from './api.js';
import { stateLabel } from './format.js';
import { TimelineView } from './timeline-view.js';
import type { Shared, Task } from './types.js';

const STATES = [
  'SUBMITTED',
  'WORKING',
  'INPUT_REQUIRED',
  'AUTH_REQUIRED',
  'COMPLETED',
  'FAILED',
  'CANCELED',
  'REJECTED',
];

/** The Tasks tab. */
export function TasksView({ shared, taskToOpen }: { shared: Shared; taskToOpen: string }) {
  const [contextId, setContextId] = useState('');
  const [status, setStatus] = useState('');
  const [after, setAfter] = useState('');
  const [pageSize, setPageSize] = useState('20');
  const [tasks, setTasks] = useState<Task[]>([]);
  const [pages, setPages] = useState<string[]>(['']);
  const [next, setNext] = useState('');
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [open, setOpen] = useState(taskToOpen);

  useEffect(() => setOpen(taskToOpen), [taskToOpen]);

  const load = async (token: string) => {
    setError('');
    const params = {
      ...(contextId ? { contextId } : {}),
      ...(status ? { status: `TASK_STATE_${status}` } : {}),
      ...(after ? { statusTimestampAfter: new Date(after).toISOString() } : {}),
      pageSize: Number(pageSize) || 20,
      ...(token ? { pageToken: token } : {}),
    };
    try {
      const { result } = await post<{
        result: { tasks: Task[]; nextPageToken: string; totalSize: number };
      }>('call', { operation: 'listTasks', params, binding: shared.binding });
      setTasks(result.tasks);
      setNext(result.nextPageToken);
      setTotal(result.totalSize);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      if (e instanceof ApiFailure && e.detail.needsAuth) shared.askAuth(e.message);
    }
  };

  const field = (id: string, label: string, input: unknown) =>
    h('div', { class: 'field' }, [h('label', { for: id }, label), input]);

  return h('section', { class: 'tasks' }, [
    h(
      'form',
      {
        class: 'filters',
        onSubmit: (e: Event) => {
          e.preventDefault();
          setPages(['']);
          void load('');
        },
      },
      [
        field(
          'f-context',
          'Context id',
          h('input', {
            id: 'f-context',
            value: contextId,
            onInput: (e: Event) => setContextId((e.target as HTMLInputElement).value),
          }),
        ),
        field(
          'f-status',
          'State',
          h(
            'select',
            {
              id: 'f-status',
              value: status,
              onChange: (e: Event) => setStatus((e.target as HTMLSelectElement).value),
            },
            [
              h('option', { value: '' }, 'any'),
              ...STATES.map((s) => h('option', { value: s }, stateLabel(s))),
            ],
          ),
        ),
        field(
          'f-after',
          'Updated after',
          h('input', {
            id: 'f-after',
            type: 'datetime-local',
            value: after,
            onInput: (e: Event) => setAfter((e.target as HTMLInputElement).value),
          }),
        ),
        field(
          'f-size',
          'Page size',
          h('input', {
            id: 'f-size',
            type: 'number',
            min: 1,
            max: 100,
            value: pageSize,
            onInput: (e: Event) => setPageSize((e.target as HTMLInputElement).value),
          }),
        ),
        h('button', { type: 'submit' }, 'List tasks'),
      ],
    ),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    total !== null
      ? h(
          'p',
          { class: 'dim', 'data-total': String(total) },
          `${total} task(s) in all; page ${pages.length}`,
        )
      : null,
    h('table', { class: 'task-list' }, [
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Task', 'State', 'Updated', 'Context', ''].map((c) => h('th', null, c)),
        ),
      ),
      h(
        'tbody',
        null,
        tasks.map((t) =>
          h('tr', { 'data-task': t.id }, [
            h('td', null, h('code', null, t.id)),
            h('td', null, stateLabel(t.status.state)),
            h('td', null, t.status.timestamp ?? ''),
            h('td', null, h('code', null, t.contextId)),
            h(
              'td',
              null,
              h('button', { type: 'button', onClick: () => setOpen(t.id) }, 'Timeline'),
            ),
          ]),
        ),
      ),
    ]),
    h('div', { class: 'row' }, [
      pages.length > 1
        ? h(
            'button',
            {
              type: 'button',
              onClick: () => {
                const p = pages.slice(0, -1);
                setPages(p);
                void load(p[p.length - 1] ?? '');
              },
            },
            '← Previous page',
          )
        : null,
      next
        ? h(
            'button',
            {
              type: 'button',
              onClick: () => {
                setPages([...pages, next]);
                void load(next);
              },
            },
            'Next page →',
          )
        : null,
    ]),
    open ? h(TimelineView, { key: open, taskId: open, shared }) : null,
  ]);
}
