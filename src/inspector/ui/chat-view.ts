/**
 * The chat view: send text, data and file parts (spec §4.1.6), blocking (SendMessage) or
 * streaming (SendStreamingMessage), on the picked interface; multi-turn on the same task with
 * input-required and auth-required shown as prompts (spec §4.1.3); cancel a running task; and
 * resubscribe (SubscribeToTask, spec §3.1.6) after a reload, the task id kept in the page URL.
 */
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, post, stream } from './api.js';
import { INTERRUPTED, TERMINAL, partsText, stateLabel } from './format.js';
import type { Json, Shared, Task, TimelineEvent } from './types.js';

interface Line {
  key: string;
  who: 'user' | 'agent' | 'status' | 'artifact' | 'error';
  text: string;
  state?: string;
}

/** The chat's task id, kept in the page URL (`#<tab>/<taskId>`) across reloads. */
function taskInHash(): string {
  const id = location.hash.replace(/^#/, '').split('/')[1];
  return id ? decodeURIComponent(id) : '';
}

/** Puts the chat's task id in the page URL, keeping the tab. */
function hashTask(id: string): void {
  const tab = location.hash.replace(/^#/, '').split('/')[0] || 'Chat';
  history.replaceState(null, '', `#${tab}${id ? `/${encodeURIComponent(id)}` : ''}`);
}

function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve((typeof reader.result === 'string' ? reader.result : '').replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the file'));
    reader.readAsDataURL(file);
  });
}

/** The Chat tab. */
export function ChatView({ shared }: { shared: Shared }) {
  const [text, setText] = useState('');
  const [data, setData] = useState('');
  const [streaming, setStreaming] = useState(shared.report?.card?.capabilities.streaming ?? false);
  const [lines, setLines] = useState<Line[]>([]);
  const [taskId, setTaskId] = useState(taskInHash());
  const [contextId, setContextId] = useState('');
  const [state, setState] = useState('');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const artifacts = useRef(new Map<string, string>());

  useEffect(() => () => abort.current?.abort(), []);

  const add = (line: Omit<Line, 'key'>) =>
    setLines((all) => [...all, { ...line, key: `${all.length}-${Math.random()}` }]);

  // The task in the page URL: written when it changes, not once per event (browsers throttle it).
  const hashed = useRef(taskId);
  const remember = (id: string, ctx: string) => {
    setTaskId(id);
    if (ctx) setContextId(ctx);
    if (hashed.current !== id) hashTask(id);
    hashed.current = id;
  };

  /**
   * Shows one event; artifact chunks are appended in place to their artifact's line. Chunks are
   * drawn once per frame, not once each (a task may stream thousands); any other event draws the
   * chunks before it first, so the page never shows a state ahead of its artifacts.
   */
  const onEvent = (event: Json) => {
    if (!('artifactUpdate' in event)) flushArtifacts();
    if ('task' in event) {
      const task = event.task as Task;
      remember(task.id, task.contextId);
      setState(task.status.state);
      for (const a of task.artifacts ?? []) {
        artifacts.current.set(a.artifactId, partsText(a.parts));
      }
      showArtifacts();
      if (task.status.message) status(task.status.state, partsText(task.status.message.parts));
      else status(task.status.state, '');
    } else if ('statusUpdate' in event) {
      const u = event.statusUpdate as { taskId: string; contextId: string; status: Task['status'] };
      remember(u.taskId, u.contextId);
      setState(u.status.state);
      status(u.status.state, partsText(u.status.message?.parts));
    } else if ('artifactUpdate' in event) {
      const u = event.artifactUpdate as {
        taskId: string;
        contextId: string;
        append?: boolean;
        artifact: { artifactId: string; parts: Json[] };
      };
      remember(u.taskId, u.contextId);
      const before = u.append ? (artifacts.current.get(u.artifact.artifactId) ?? '') : '';
      artifacts.current.set(u.artifact.artifactId, before + partsText(u.artifact.parts));
      drawArtifactsSoon();
    } else if ('message' in event) {
      const m = event.message as { parts: Json[]; taskId?: string; contextId?: string };
      if (m.contextId) setContextId(m.contextId);
      add({ who: 'agent', text: partsText(m.parts) });
    }
  };

  const status = (s: string, message: string) => {
    if (INTERRUPTED.has(s)) {
      const what = s === 'TASK_STATE_AUTH_REQUIRED' ? 'Authorization required' : 'Input required';
      add({ who: 'status', state: s, text: `${what}: ${message}` });
    } else
      add({ who: 'status', state: s, text: `${stateLabel(s)}${message ? `: ${message}` : ''}` });
  };

  const drawPending = useRef(0);
  const drawArtifactsSoon = () => {
    drawPending.current ||= requestAnimationFrame(flushArtifacts);
  };
  const flushArtifacts = () => {
    if (!drawPending.current) return;
    cancelAnimationFrame(drawPending.current);
    drawPending.current = 0;
    showArtifacts();
  };

  const showArtifacts = () =>
    setLines((all) => {
      const rest = all.filter((l) => l.who !== 'artifact');
      const arts = [...artifacts.current.entries()].map(([id, t]): Line => ({
        key: `artifact-${id}`,
        who: 'artifact',
        text: t,
        state: id,
      }));
      return [...rest, ...arts];
    });

  const fail = (e: unknown) => {
    const detail = e instanceof ApiFailure ? e.detail : undefined;
    const message = e instanceof Error ? e.message : String(e);
    setError(message);
    add({ who: 'error', text: message });
    if (detail?.needsAuth) shared.askAuth(`The agent answered: ${message}`);
  };

  const run = async (operation: string, params: unknown) => {
    setRunning(true);
    setError('');
    abort.current = new AbortController();
    try {
      if (operation === 'sendMessage') {
        const { result } = await post<{ result: Json }>('call', {
          operation,
          params,
          binding: shared.binding,
        });
        onEvent(result);
      } else {
        await stream<TimelineEvent>(
          { operation, params, binding: shared.binding },
          (e) => onEvent(e.event),
          abort.current.signal,
        );
      }
    } catch (e) {
      if (!(e instanceof DOMException && e.name === 'AbortError')) fail(e);
    } finally {
      flushArtifacts();
      setRunning(false);
    }
  };

  const send = async (event: Event) => {
    event.preventDefault();
    const parts: Json[] = [];
    if (text.trim()) parts.push({ text });
    if (data.trim()) {
      try {
        parts.push({ data: JSON.parse(data) as unknown });
      } catch {
        setError('the data part is not valid JSON');
        return;
      }
    }
    const file = fileInput.current?.files?.[0];
    if (file) {
      parts.push({
        raw: await readFile(file),
        filename: file.name,
        mediaType: file.type || 'application/octet-stream',
      });
    }
    if (parts.length === 0) {
      setError('write a message, a data part or pick a file');
      return;
    }
    const continuing = taskId && !TERMINAL.has(state) && state !== '';
    const message = {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts,
      ...(continuing ? { taskId } : {}),
      ...(contextId ? { contextId } : {}),
    };
    add({ who: 'user', text: partsText(parts) });
    setText('');
    setData('');
    if (fileInput.current) fileInput.current.value = '';
    if (!continuing) artifacts.current = new Map();
    await run(streaming ? 'sendStreamingMessage' : 'sendMessage', { message });
  };

  const cancel = async () => {
    try {
      const { result } = await post<{ result: Json }>('call', {
        operation: 'cancelTask',
        params: { id: taskId },
        binding: shared.binding,
      });
      onEvent({ task: result });
    } catch (e) {
      fail(e);
    }
  };

  const newChat = () => {
    abort.current?.abort();
    cancelAnimationFrame(drawPending.current);
    drawPending.current = 0;
    setLines([]);
    setTaskId('');
    setContextId('');
    setState('');
    artifacts.current = new Map();
    hashTask('');
    hashed.current = '';
  };

  const open = taskId !== '' && !TERMINAL.has(state);
  return h('section', { class: 'chat' }, [
    h('div', { class: 'task-line' }, [
      taskId
        ? h('span', null, [
            'Task ',
            h('code', { 'data-task-id': taskId }, taskId),
            state ? ` · ${stateLabel(state)}` : '',
          ])
        : h('span', { class: 'dim' }, 'New conversation'),
      open
        ? h(
            'button',
            { type: 'button', onClick: () => void cancel(), 'data-action': 'cancel' },
            'Cancel task',
          )
        : null,
      taskId && !running
        ? h(
            'button',
            { type: 'button', onClick: () => void run('subscribeToTask', { id: taskId }) },
            'Resubscribe',
          )
        : null,
      taskId
        ? h('button', { type: 'button', onClick: () => shared.openTask(taskId) }, 'Timeline')
        : null,
      h('button', { type: 'button', onClick: newChat }, 'New chat'),
    ]),
    h(
      'ol',
      { class: 'transcript', 'aria-live': 'polite' },
      lines.map((l) =>
        h(
          'li',
          {
            key: l.key,
            class: `line ${l.who} ${l.state && INTERRUPTED.has(l.state) ? 'prompt' : ''}`,
            'data-who': l.who,
            ...(l.who === 'artifact' ? { 'data-artifact': l.state } : {}),
            ...(l.who === 'status' ? { 'data-state': stateLabel(l.state) } : {}),
          },
          [
            h('span', { class: 'who' }, l.who === 'artifact' ? `artifact ${l.state ?? ''}` : l.who),
            h('span', { class: 'text' }, l.text),
          ],
        ),
      ),
    ),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h('form', { class: 'composer', onSubmit: (e: Event) => void send(e) }, [
      h('label', { for: 'msg-text' }, 'Message text'),
      h('textarea', {
        id: 'msg-text',
        rows: 2,
        value: text,
        onInput: (e: Event) => setText((e.target as HTMLTextAreaElement).value),
        onKeyDown: (e: KeyboardEvent) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send(e);
        },
      }),
      h('details', null, [
        h('summary', null, 'Data and file parts'),
        h('label', { for: 'msg-data' }, 'Data part (JSON)'),
        h('textarea', {
          id: 'msg-data',
          rows: 2,
          value: data,
          placeholder: '{"date": "2026-12-24"}',
          onInput: (e: Event) => setData((e.target as HTMLTextAreaElement).value),
        }),
        h('label', { for: 'msg-file' }, 'File part'),
        h('input', { id: 'msg-file', type: 'file', ref: fileInput }),
      ]),
      h('div', { class: 'row' }, [
        h('label', null, [
          h('input', {
            type: 'checkbox',
            id: 'streaming',
            checked: streaming,
            onChange: (e: Event) => setStreaming((e.target as HTMLInputElement).checked),
          }),
          ' Stream',
        ]),
        h(
          'button',
          { type: 'submit', disabled: running && !open },
          taskId && open ? 'Send on this task' : 'Send',
        ),
      ]),
    ]),
  ]);
}
