/**
 * The web inspector as one HTTP handler (the runtime-neutral model of src/http/types.ts): the page
 * and its bundled script and style under a strict Content-Security-Policy (no inline script, no
 * other origin), the JSON API the page calls (guarded against other sites and DNS rebinding), and
 * the push webhooks. `a2a inspect` serves it alone; `serve({ inspector: true })` mounts it at
 * `/inspector` beside an agent.
 */
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { assetLoader, ASSET_TYPES, defaultAssetsDir } from './assets.js';
import { apiRoute } from './api.js';
import { json, secure } from './responses.js';
import { InspectorSession, type InspectorTls } from './session.js';

/** Options of {@link createInspector}. */
export interface InspectorOptions {
  /** Where the page lives on its server: `''` (own server) or `/inspector` (default `''`). */
  readonly mount?: string | undefined;
  /** The agent to open first (its URL or card URL). */
  readonly target?: string | undefined;
  /** The directory holding index.html, app.js, app.css (default: the built ones). */
  readonly assetsDir?: string | URL | undefined;
  /**
   * Accept requests whose Host is not a loopback name (default false: the API holds credentials,
   * and a loopback-only Host check stops DNS rebinding).
   */
  readonly allowRemoteHosts?: boolean | undefined;
  /** The fetch the inspector's client uses (default global fetch). */
  readonly fetch?: typeof fetch | undefined;
  /**
   * A TLS client for agents that want a client certificate (mutual TLS); without it the Auth
   * view says the scheme cannot be used. Node: `{ connect: tlsClientFetch }` (a2a-kit/node).
   */
  readonly tls?: InspectorTls | undefined;
}

/** A running inspector: its handler, and what it holds. */
export interface Inspector {
  readonly mount: string;
  readonly session: InspectorSession;
  /** True when `path` (no query) is one of the inspector's. */
  owns(path: string): boolean;
  handle(request: HttpRequest): Promise<HttpResponse>;
}

/** The request header the page sends on every API call (a cross-site form cannot set it). */
export const INSPECTOR_HEADER = 'x-a2a-inspector';

const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/** Creates the inspector handler. */
export function createInspector(options: InspectorOptions = {}): Inspector {
  const mount = (options.mount ?? '').replace(/\/+$/, '');
  const session = new InspectorSession({ fetch: options.fetch, tls: options.tls });
  const asset = assetLoader(options.assetsDir ?? defaultAssetsDir());
  const owns = (path: string) => path === mount || path.startsWith(`${mount}/`) || mount === '';

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const target = new URL(request.url, 'http://inspector.invalid');
    const path = target.pathname.slice(mount.length) || '';
    const host = request.headers.get('host') ?? '';
    if (!options.allowRemoteHosts && !LOOPBACK_HOST.test(host)) {
      return json(421, { error: `the inspector answers loopback hosts only, not "${host}"` });
    }
    if (path === '') return { status: 308, headers: { location: `${mount}/` }, body: undefined };
    if (request.method === 'GET' && (path === '/' || path === '/index.html')) {
      return file('index.html', await asset('index.html'));
    }
    const name = path.slice(1);
    if (request.method === 'GET' && name !== 'index.html' && ASSET_TYPES[name] !== undefined) {
      return file(name, await asset(name));
    }
    if (path.startsWith('/hooks/')) {
      if (request.method !== 'POST') return json(405, { error: 'use POST' });
      const status = await session.hooks.receive(
        path.slice('/hooks/'.length),
        request.headers,
        request.body ?? '',
      );
      return { status, headers: secure({}), body: undefined };
    }
    if (path.startsWith('/api/')) {
      const refusal = guard(request, host);
      if (refusal) return json(403, { error: refusal });
      const origin = request.origin ?? `http://${host}`;
      return apiRoute(session, {
        request,
        path: path.slice('/api/'.length),
        query: target.searchParams,
        origin,
        hookPath: `${mount}/hooks`,
        target: options.target,
      });
    }
    return json(404, { error: `no inspector page at ${target.pathname}` });
  }

  return { mount, session, owns, handle };
}

/** Refuses API calls another site could make: no inspector header, or a foreign Origin. */
function guard(request: HttpRequest, host: string): string | undefined {
  if (request.headers.get(INSPECTOR_HEADER) !== '1') {
    return `missing ${INSPECTOR_HEADER} header: the API answers the inspector page only`;
  }
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== 'null') {
    let originHost = '';
    try {
      originHost = new URL(origin).host;
    } catch {
      // unparsable: refused below
    }
    if (originHost !== host) return `cross-origin call from ${origin} refused`;
  }
  return undefined;
}

function file(name: string, text: string): HttpResponse {
  return {
    status: 200,
    headers: secure({
      'content-type': ASSET_TYPES[name] ?? 'text/plain',
      'cache-control': 'no-cache',
    }),
    body: text,
  };
}
