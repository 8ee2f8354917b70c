/**
 * The auth view: what the card's securitySchemes and securityRequirements ask for (spec §5.5,
 * §7), one form per scheme. Values go to the inspector's local server, which keeps them in its
 * process and adds them to each call; the page clears its fields and never stores them.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { post } from './api.js';
import type { AuthNeed, Shared } from './types.js';

function SchemeForm({ need, shared }: { need: AuthNeed; shared: Shared }) {
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const fields: Record<string, string> = {};
    for (const f of need.fields) {
      const input = form.elements.namedItem(f.name) as HTMLInputElement | null;
      if (input) fields[f.name] = input.value;
    }
    try {
      const { needs } = await post<{ needs: AuthNeed[] }>('credentials', {
        scheme: need.scheme,
        fields,
      });
      shared.setNeeds(needs);
      for (const f of need.fields) {
        const input = form.elements.namedItem(f.name) as HTMLInputElement | null;
        if (input && f.secret) input.value = '';
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return h(
    'form',
    {
      class: 'scheme',
      'data-scheme': need.scheme,
      autocomplete: 'off',
      onSubmit: (e: Event) => void submit(e),
    },
    [
      h('h3', null, [
        h('code', null, need.scheme),
        ` ${need.description}`,
        need.required
          ? h('span', { class: 'badge' }, 'required')
          : h('span', { class: 'badge dim' }, 'optional'),
        need.configured ? h('span', { class: 'badge ok', 'data-configured': 'true' }, 'set') : null,
      ]),
      need.unsupported ? h('p', { class: 'warn' }, need.unsupported) : null,
      ...need.fields.map((f) =>
        h('div', { class: 'field' }, [
          h('label', { for: `${need.scheme}-${f.name}` }, f.label),
          h('input', {
            id: `${need.scheme}-${f.name}`,
            name: f.name,
            type: f.secret ? 'password' : 'text',
            autocomplete: 'off',
            ...(f.value !== undefined ? { value: f.value } : {}),
          }),
        ]),
      ),
      h('div', { class: 'row' }, [
        h('button', { type: 'submit', disabled: need.unsupported !== undefined }, 'Use'),
        need.configured
          ? h(
              'button',
              {
                type: 'button',
                onClick: () =>
                  void post<{ needs: AuthNeed[] }>('credentials', {
                    scheme: need.scheme,
                    fields: {},
                  }).then((r) => shared.setNeeds(r.needs)),
              },
              'Forget',
            )
          : null,
      ]),
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    ],
  );
}

/** The Auth tab. */
export function AuthView({ shared, reason }: { shared: Shared; reason: string }) {
  return h('section', { class: 'auth' }, [
    reason ? h('p', { class: 'warn', role: 'alert', 'data-auth-reason': 'true' }, reason) : null,
    shared.needs.length === 0
      ? h('p', { class: 'dim' }, 'The card declares no security scheme.')
      : h(
          'p',
          { class: 'dim' },
          'Credentials stay in the inspector’s local server process; the page does not keep them.',
        ),
    ...shared.needs.map((need) => h(SchemeForm, { key: need.scheme, need, shared })),
  ]);
}
