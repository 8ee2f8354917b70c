/**
 * The wire view: each request and response the inspector's client made, headers included with
 * secrets masked, SSE frames as they arrived (with their arrival time), and "copy as curl".
 */
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post } from './api.js';
import { clock } from './format.js';
import type { WireEntry } from './types.js';

function headers(record: Record<string, string> | undefined) {
  return h(
    'pre',
    { class: 'headers' },
    Object.entries(record ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
}

/** The Wire tab. */
export function WireView() {
  const [entries, setEntries] = useState<WireEntry[]>([]);
  const [copied, setCopied] = useState(0);
  const timer = useRef(0);

  useEffect(() => {
    let stop = false;
    const poll = async () => {
      while (!stop) {
        // Entries change while their stream runs: take the whole log again.
        const { entries: all } = await get<{ entries: WireEntry[] }>('wire');
        if (!stop) setEntries(all);
        await new Promise((r) => (timer.current = window.setTimeout(r, 700)));
      }
    };
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer.current);
    };
  }, []);

  const copy = async (entry: WireEntry) => {
    try {
      await navigator.clipboard.writeText(entry.curl);
    } catch {
      // no clipboard permission (plain http on some browsers): the command is shown below
    }
    setCopied(entry.id);
  };

  return h('section', { class: 'wire' }, [
    h('div', { class: 'row' }, [
      h('p', { class: 'dim' }, `${entries.length} exchange(s); secrets are masked.`),
      h(
        'button',
        { type: 'button', onClick: () => void post('wire/clear', {}).then(() => setEntries([])) },
        'Clear',
      ),
    ]),
    h(
      'ol',
      { class: 'wire-list' },
      entries
        .slice()
        .reverse()
        .map((e) =>
          h('li', { key: e.id, 'data-wire': String(e.id) }, [
            h('details', null, [
              h('summary', null, [
                h('span', { class: 'method' }, e.method),
                ` ${e.url} `,
                h(
                  'span',
                  { class: e.status !== undefined && e.status >= 400 ? 'bad' : 'ok' },
                  e.error ? `✘ ${e.error}` : String(e.status ?? '…'),
                ),
                h(
                  'span',
                  { class: 'dim' },
                  ` ${clock(e.time)}${e.durationMs !== undefined ? ` · ${e.durationMs} ms` : ''}${e.frames.length ? ` · ${e.frames.length} SSE frame(s)` : ''}`,
                ),
              ]),
              h('h4', null, 'Request headers'),
              headers(e.requestHeaders),
              e.requestBody ? [h('h4', null, 'Request body'), h('pre', null, e.requestBody)] : null,
              h('h4', null, 'Response headers'),
              headers(e.responseHeaders),
              e.responseBody
                ? [h('h4', null, 'Response body'), h('pre', null, e.responseBody)]
                : null,
              e.frames.length
                ? [
                    h('h4', null, 'SSE frames (as they arrived)'),
                    h(
                      'ol',
                      { class: 'frames' },
                      e.frames.map((f) =>
                        h('li', null, [
                          h('span', { class: 'dim' }, `${clock(f.time)} `),
                          h('code', null, f.text),
                        ]),
                      ),
                    ),
                  ]
                : null,
              h('div', { class: 'row' }, [
                h(
                  'button',
                  { type: 'button', onClick: () => void copy(e) },
                  copied === e.id ? 'Copied' : 'Copy as curl',
                ),
              ]),
              h('pre', { class: 'curl' }, e.curl),
            ]),
          ]),
        ),
    ),
  ]);
}
