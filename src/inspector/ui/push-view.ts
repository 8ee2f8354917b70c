/**
 * The push view: register the inspector's built-in webhook on a task (spec §3.1.7,
 * CreateTaskPushNotificationConfig) and watch deliveries arrive, each with its signature check
 * (against the agent's push JWKS, spec §13.2), key id, and replay status (`jti` seen before).
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, get, post } from './api.js';
import { clock, partsText, stateLabel } from './format.js';
import type { Delivery, Hook, Json, Shared } from './types.js';

function eventLine(event: Json | undefined): string {
  if (!event) return '';
  if ('statusUpdate' in event) {
    const u = event.statusUpdate as { status: { state: string } };
    return `status ${stateLabel(u.status.state)}`;
  }
  if ('artifactUpdate' in event) {
    const u = event.artifactUpdate as { artifact: { artifactId: string; parts: Json[] } };
    return `artifact ${u.artifact.artifactId}: ${partsText(u.artifact.parts)}`;
  }
  if ('task' in event)
    return `task ${stateLabel((event.task as { status: { state: string } }).status.state)}`;
  return 'message';
}

/** The Push tab. */
export function PushView({ shared }: { shared: Shared }) {
  const [taskId, setTaskId] = useState(location.hash.split('/')[1] ?? '');
  const [jwks, setJwks] = useState('');
  const [hooks, setHooks] = useState<Hook[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');

  useEffect(() => {
    let stop = false;
    const poll = async () => {
      while (!stop) {
        const state = await get<{ hooks: Hook[]; deliveries: Delivery[] }>('push');
        if (stop) return;
        setHooks(state.hooks);
        setDeliveries(state.deliveries);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    void poll();
    return () => {
      stop = true;
    };
  }, []);

  const register = async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      const { hook } = await post<{ hook: Hook }>('push/register', {
        taskId,
        binding: shared.binding,
        ...(jwks ? { jwksUrl: jwks } : {}),
      });
      setNote(
        `Registered ${hook.url} on task ${hook.taskId}${hook.jwksUrl ? `; signatures checked against ${hook.jwksUrl}` : ''}.`,
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      if (e instanceof ApiFailure && e.detail.needsAuth) shared.askAuth(e.message);
    }
  };

  const pushOff = shared.report?.card?.capabilities.pushNotifications === false;
  return h('section', { class: 'push' }, [
    pushOff
      ? h(
          'p',
          { class: 'warn' },
          'The card does not declare pushNotifications: registering will likely fail.',
        )
      : null,
    h('form', { class: 'filters', onSubmit: (e: Event) => void register(e) }, [
      h('div', { class: 'field' }, [
        h('label', { for: 'push-task' }, 'Task id'),
        h('input', {
          id: 'push-task',
          value: taskId,
          required: true,
          onInput: (e: Event) => setTaskId((e.target as HTMLInputElement).value),
        }),
      ]),
      h('div', { class: 'field' }, [
        h(
          'label',
          { for: 'push-jwks' },
          'Push JWKS URL (default: the agent’s /.well-known/a2a-push-jwks.json)',
        ),
        h('input', {
          id: 'push-jwks',
          type: 'url',
          value: jwks,
          onInput: (e: Event) => setJwks((e.target as HTMLInputElement).value),
        }),
      ]),
      h('button', { type: 'submit' }, 'Register webhook'),
    ]),
    note ? h('p', { class: 'ok' }, note) : null,
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h('h3', null, `Webhooks (${hooks.length})`),
    h(
      'ul',
      null,
      hooks.map((k) =>
        h('li', { 'data-hook': k.id }, [h('code', null, k.url), ` task ${k.taskId}`]),
      ),
    ),
    h('h3', null, `Deliveries (${deliveries.length})`),
    h('table', { class: 'deliveries' }, [
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['#', 'Time', 'Result', 'Signature', 'Key id', 'Replay', 'Event'].map((c) =>
            h('th', null, c),
          ),
        ),
      ),
      h(
        'tbody',
        null,
        deliveries.map((d) =>
          h(
            'tr',
            {
              key: d.seq,
              'data-delivery': d.accepted ? 'accepted' : 'refused',
              'data-signature': d.signature,
            },
            [
              h('td', null, String(d.seq)),
              h('td', null, clock(d.time)),
              h(
                'td',
                { class: d.accepted ? 'ok' : 'bad' },
                d.accepted ? `✔ ${d.status}` : `✘ ${d.status}`,
              ),
              h('td', null, d.accepted ? d.signature : `${d.signature}: ${d.message ?? ''}`),
              h('td', null, d.kid ?? ''),
              h('td', null, d.replay),
              h('td', null, eventLine(d.event)),
            ],
          ),
        ),
      ),
    ]),
  ]);
}
