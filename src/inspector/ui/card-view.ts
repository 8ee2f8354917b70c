/**
 * The card view: the Agent Card as served (spec §5.5), rendered: interfaces in the card's
 * preference order (spec §8.3.2), capabilities, skills, security schemes, extensions; the
 * validation of `a2a card validate`; the signature status (spec §8.4.3); the raw JSON; and the
 * extended card (spec §3.1.11) fetched with the credentials held by the inspector's server.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure, post } from './api.js';
import type { Card, Shared, Signature } from './types.js';

function signatureLine(signature: Signature) {
  if (signature.status === 'verified') {
    return h('p', { class: 'sig ok', 'data-signature': 'verified' }, [
      h('strong', null, '✔ Signature verified'),
      ` with key id "${signature.kid}" (${signature.alg})`,
      signature.jku ? ` from ${signature.jku}` : '',
    ]);
  }
  if (signature.status === 'unsigned') {
    return h(
      'p',
      { class: 'sig none', 'data-signature': 'unsigned' },
      h('strong', null, '○ Unsigned'),
    );
  }
  return h('div', { class: 'sig bad', 'data-signature': 'invalid' }, [
    h('p', null, [h('strong', null, '✘ Signature invalid'), `: ${signature.message}`]),
    h(
      'ul',
      null,
      signature.failures.map((f) =>
        h('li', null, `${f.kid ? `key id "${f.kid}": ` : ''}${f.code} ${f.message}`),
      ),
    ),
  ]);
}

function CardBody({ card }: { card: Card }) {
  const caps = card.capabilities;
  return h('div', { class: 'card-body' }, [
    h('h2', null, [card.name, h('span', { class: 'dim' }, ` v${card.version}`)]),
    h('p', null, card.description),
    card.provider ? h('p', { class: 'dim' }, `by ${card.provider.organization}`) : null,
    h('h3', null, 'Capabilities'),
    h('ul', { class: 'chips' }, [
      h(
        'li',
        { class: caps.streaming ? 'on' : 'off' },
        `streaming ${caps.streaming ? 'yes' : 'no'}`,
      ),
      h(
        'li',
        { class: caps.pushNotifications ? 'on' : 'off' },
        `push ${caps.pushNotifications ? 'yes' : 'no'}`,
      ),
      h(
        'li',
        { class: caps.extendedAgentCard ? 'on' : 'off' },
        `extended card ${caps.extendedAgentCard ? 'yes' : 'no'}`,
      ),
    ]),
    caps.extensions?.length
      ? [
          h('h3', null, 'Extensions'),
          h(
            'ul',
            null,
            caps.extensions.map((x) =>
              h('li', null, [
                h('code', null, x.uri),
                x.required ? ' (required)' : '',
                x.description ? ` — ${x.description}` : '',
              ]),
            ),
          ),
        ]
      : null,
    h('h3', null, `Skills (${card.skills.length})`),
    h(
      'ul',
      { class: 'skills' },
      card.skills.map((s) =>
        h('li', { 'data-skill': s.id }, [
          h('strong', null, s.name),
          h('code', null, ` ${s.id}`),
          h('p', null, s.description),
          s.tags.length ? h('p', { class: 'dim' }, s.tags.map((t) => `#${t}`).join(' ')) : null,
          s.examples?.length ? h('p', { class: 'dim' }, `e.g. ${s.examples.join(' · ')}`) : null,
        ]),
      ),
    ),
    h('h3', null, 'Security schemes'),
    Object.keys(card.securitySchemes ?? {}).length === 0
      ? h('p', { class: 'dim' }, 'none declared')
      : h(
          'ul',
          null,
          Object.entries(card.securitySchemes ?? {}).map(([name, scheme]) =>
            h('li', null, [h('code', null, name), ` ${Object.keys(scheme).join(', ')}`]),
          ),
        ),
    card.securityRequirements?.length
      ? h(
          'p',
          null,
          `Required: ${card.securityRequirements.map((r) => Object.keys(r.schemes ?? {}).join(' + ')).join(' or ')}`,
        )
      : h('p', { class: 'dim' }, 'No security requirement: anonymous calls are allowed.'),
  ]);
}

/** The Card tab. */
export function CardView({ shared }: { shared: Shared }) {
  const report = shared.report;
  const [extended, setExtended] = useState<Card | null>(null);
  const [extError, setExtError] = useState('');
  if (!report) return null;
  const loadExtended = async () => {
    setExtError('');
    try {
      const { card } = await post<{ card: Card }>('extended-card', { binding: shared.binding });
      setExtended(card);
    } catch (e) {
      const detail = e instanceof ApiFailure ? e.detail : undefined;
      setExtError(e instanceof Error ? e.message : String(e));
      if (detail?.needsAuth) shared.askAuth('GetExtendedAgentCard needs credentials.');
    }
  };
  return h('section', { class: 'card-view', 'data-card-url': report.cardUrl }, [
    h('p', { class: 'dim' }, ['Served at ', h('code', null, report.cardUrl)]),
    signatureLine(report.signature),
    h('h3', null, 'Validation'),
    report.valid
      ? h('p', { class: 'ok', 'data-valid': 'true' }, '✔ valid A2A 1.0 Agent Card')
      : h('div', { class: 'bad', 'data-valid': 'false' }, [
          h(
            'p',
            null,
            report.legacy
              ? `✘ an A2A 0.3 card, not a valid 1.0 one (${report.violations.length} problem(s)); the inspector reads it as the client does`
              : `✘ ${report.violations.length} problem(s)`,
          ),
          h(
            'ul',
            null,
            report.violations.map((v) => h('li', null, `${v.field || '(card)'}: ${v.description}`)),
          ),
        ]),
    report.warnings.length
      ? h(
          'ul',
          { class: 'warnings' },
          report.warnings.map((w) => h('li', null, `! ${w}`)),
        )
      : null,
    h('h3', null, 'Interfaces (preference order)'),
    h(
      'p',
      { 'data-versions': report.versions.join(' ') },
      `Protocol versions: ${report.versions.join(', ') || 'none'}${report.legacy ? ' (an A2A 0.3 card, read into the 1.0 shape)' : ''}`,
    ),
    h('table', { class: 'interfaces' }, [
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['#', 'Binding', 'Version', 'URL', ''].map((c) => h('th', null, c)),
        ),
      ),
      h(
        'tbody',
        null,
        report.interfaces.map((i, n) =>
          h('tr', null, [
            h('td', null, String(n + 1)),
            h('td', null, i.protocolBinding),
            h('td', null, i.protocolVersion),
            h('td', null, h('code', null, i.url)),
            h('td', { class: 'dim' }, i.note ?? (i.usable ? 'usable' : '')),
          ]),
        ),
      ),
    ]),
    report.card ? h(CardBody, { card: report.card }) : null,
    report.card?.capabilities.extendedAgentCard
      ? h('div', { class: 'extended' }, [
          h('h3', null, 'Extended card'),
          h('button', { type: 'button', onClick: () => void loadExtended() }, 'Get extended card'),
          extError ? h('p', { class: 'error', role: 'alert' }, extError) : null,
          extended
            ? h('div', { 'data-extended': 'true' }, [
                h(
                  'p',
                  null,
                  `Extended card: ${extended.skills.length} skills (${extended.skills.map((s) => s.id).join(', ')})`,
                ),
                h('pre', { class: 'json' }, JSON.stringify(extended, null, 2)),
              ])
            : null,
        ])
      : null,
    h('details', null, [
      h('summary', null, 'Raw JSON as served'),
      h('pre', { class: 'json', 'data-raw': 'true' }, JSON.stringify(report.raw, null, 2)),
    ]),
  ]);
}
