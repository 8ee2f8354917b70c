/**
 * The inspector page: an address bar (agent URL, interface picker), then one view per tab: Card,
 * Chat, Tasks (with the task timeline), Wire, Push and Auth. Preact with `h()` calls (no JSX
 * build step); bundled by scripts/build-inspector.mjs into app.js.
 */
import { h, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, post, ApiFailure } from './api.js';
import { AuthView } from './auth-view.js';
import { CardView } from './card-view.js';
import { ChatView } from './chat-view.js';
import { PushView } from './push-view.js';
import { TasksView } from './tasks-view.js';
import type { AuthNeed, Report, Shared } from './types.js';
import { WireView } from './wire-view.js';

const TABS = ['Card', 'Chat', 'Tasks', 'Wire', 'Push', 'Auth'] as const;
type Tab = (typeof TABS)[number];

interface State {
  target: string | null;
  agentUrl: string | null;
  report: Report | null;
  needs: AuthNeed[];
}

function tabFromHash(): Tab {
  const name = location.hash.replace(/^#/, '').split('/')[0] ?? '';
  return (TABS as readonly string[]).includes(name) ? (name as Tab) : 'Card';
}

function App() {
  const [url, setUrl] = useState('');
  const [report, setReport] = useState<Report | null>(null);
  const [needs, setNeeds] = useState<AuthNeed[]>([]);
  const [binding, setBinding] = useState('');
  const [tab, setTab] = useState<Tab>(tabFromHash());
  const [error, setError] = useState('');
  const [authReason, setAuthReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [taskToOpen, setTaskToOpen] = useState('');

  async function connect(target: string) {
    setBusy(true);
    setError('');
    try {
      const result = await post<{ report: Report; needs: AuthNeed[] }>('connect', { url: target });
      setReport(result.report);
      setNeeds(result.needs);
      const first = result.report.interfaces.find((i) => i.usable);
      setBinding(first?.choice ?? '');
      show('Card');
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
      setReport(null);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    void get<State>('state').then((state) => {
      if (state.report) {
        setReport(state.report);
        setNeeds(state.needs);
        setUrl(state.agentUrl ?? '');
        const first = state.report.interfaces.find((i) => i.usable);
        setBinding(first?.choice ?? '');
      } else if (state.target) {
        setUrl(state.target);
        void connect(state.target);
      }
    });
    const onHash = () => setTab(tabFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  function show(next: Tab) {
    setTab(next);
    const rest = location.hash.split('/').slice(1).join('/');
    history.replaceState(null, '', `#${next}${rest ? `/${rest}` : ''}`);
  }

  const shared: Shared = {
    report,
    needs,
    binding,
    setNeeds,
    askAuth(reason) {
      setAuthReason(reason);
      show('Auth');
    },
    openTask(taskId) {
      setTaskToOpen(taskId);
      show('Tasks');
    },
  };

  const onTabKey = (event: KeyboardEvent) => {
    const focused = (event.target as HTMLElement).id.replace(/^tab-/, '');
    const at = Math.max(0, TABS.indexOf(focused as Tab));
    if (event.key === 'ArrowRight') show(TABS[(at + 1) % TABS.length] as Tab);
    else if (event.key === 'ArrowLeft') show(TABS[(at + TABS.length - 1) % TABS.length] as Tab);
    else return;
    event.preventDefault();
    const next = TABS[
      (at + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length
    ] as Tab;
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus());
  };

  return h('div', { class: 'app' }, [
    h('header', { class: 'bar' }, [
      h('h1', null, 'a2a-kit inspector'),
      h(
        'form',
        {
          class: 'connect',
          onSubmit: (event: Event) => {
            event.preventDefault();
            void connect(url);
          },
        },
        [
          h('label', { for: 'agent-url', class: 'sr-only' }, 'Agent URL'),
          h('input', {
            id: 'agent-url',
            type: 'url',
            placeholder: 'http://127.0.0.1:8765',
            value: url,
            required: true,
            onInput: (e: Event) => setUrl((e.target as HTMLInputElement).value),
          }),
          h('button', { type: 'submit', disabled: busy }, busy ? 'Connecting…' : 'Connect'),
        ],
      ),
      report
        ? h('label', { class: 'picker' }, [
            'Interface ',
            h(
              'select',
              {
                id: 'binding',
                value: binding,
                onChange: (e: Event) => setBinding((e.target as HTMLSelectElement).value),
              },
              // One option per binding and version (the card may list several URLs of one).
              report.interfaces
                .filter((i, n, all) => all.findIndex((o) => o.choice === i.choice) === n)
                .map((i) =>
                  h(
                    'option',
                    { value: i.choice, disabled: !i.usable },
                    `${i.protocolBinding} ${i.protocolVersion}${i.usable ? '' : ' (not spoken)'}`,
                  ),
                ),
            ),
          ])
        : null,
    ]),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h(
      'nav',
      { role: 'tablist', 'aria-label': 'Views', onKeyDown: onTabKey },
      TABS.map((name) =>
        h(
          'button',
          {
            id: `tab-${name}`,
            role: 'tab',
            type: 'button',
            'aria-selected': tab === name ? 'true' : 'false',
            'aria-controls': `view-${name}`,
            tabIndex: tab === name ? 0 : -1,
            onClick: () => show(name),
          },
          name === 'Auth' && needs.some((n) => n.required && !n.configured) ? 'Auth •' : name,
        ),
      ),
    ),
    h(
      'main',
      { id: `view-${tab}`, role: 'tabpanel', 'aria-labelledby': `tab-${tab}`, tabIndex: -1 },
      [
        !report && tab !== 'Wire' && tab !== 'Push'
          ? h('p', { class: 'hint' }, 'Enter an agent URL and connect.')
          : null,
        // The chat stays mounted (hidden on other tabs): its conversation survives a look elsewhere.
        report
          ? h('div', { hidden: tab !== 'Chat' }, h(ChatView, { key: report.cardUrl, shared }))
          : null,
        report && tab === 'Card' ? h(CardView, { shared }) : null,
        report && tab === 'Tasks' ? h(TasksView, { shared, taskToOpen }) : null,
        tab === 'Wire' ? h(WireView, null) : null,
        tab === 'Push' ? h(PushView, { shared }) : null,
        report && tab === 'Auth' ? h(AuthView, { shared, reason: authReason }) : null,
      ],
    ),
  ]);
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(h(App, null), root);
}
