/**
 * The inspector's JSON API, called by its page only (handler.ts guards it): connect to an agent,
 * set credentials, run operations (streams relayed as SSE, one timeline entry per event), read
 * the wire log, timelines, webhooks and deliveries. Bad input is a 400 with a message, never a
 * crash; agent errors come back as `{ error }` with what the agent said.
 */
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { json } from './responses.js';
import { INSPECTOR_BINDINGS } from './card-report.js';
import { describeError, STREAMING, UNARY, type InspectorSession } from './session.js';

/** One API request, already past the guard. */
export interface ApiRequest {
  readonly request: HttpRequest;
  /** The path after `/api/`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The inspector's own origin (for webhook URLs). */
  readonly origin: string;
  readonly hookPath: string;
  readonly target: string | undefined;
}

type Body = Record<string, unknown>;

/** Answers one API request. */
export async function apiRoute(session: InspectorSession, api: ApiRequest): Promise<HttpResponse> {
  const { request, path, query } = api;
  if (request.method === 'GET') {
    switch (path) {
      case 'state':
        return json(200, {
          target: api.target ?? null,
          agentUrl: session.agentUrl ?? null,
          report: session.report ?? null,
          needs: session.needs(),
          bindings: INSPECTOR_BINDINGS,
        });
      case 'wire':
        return json(200, { entries: session.wireSince(Number(query.get('after') ?? 0) || 0) });
      case 'timeline': {
        const taskId = query.get('taskId') ?? '';
        const after = Number(query.get('after') ?? 0) || 0;
        return json(200, { events: session.timelines.since(taskId, after) });
      }
      case 'push':
        return json(200, {
          hooks: session.hooks.list().map((h) => ({ ...h, token: '•••' })),
          deliveries: session.hooks.since(Number(query.get('after') ?? 0) || 0),
        });
      default:
        return json(404, { error: `no API GET ${path}` });
    }
  }
  if (request.method !== 'POST') return json(405, { error: 'use GET or POST' });
  const body = parseBody(request.body);
  if (body === undefined) return json(400, { error: 'the body must be a JSON object' });
  const binding = typeof body.binding === 'string' && body.binding ? body.binding : undefined;
  try {
    switch (path) {
      case 'connect': {
        if (typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url)) {
          return json(400, { error: 'give the agent URL (http:// or https://)' });
        }
        const report = await session.connect(body.url);
        return json(200, { report, needs: session.needs() });
      }
      case 'credentials': {
        if (typeof body.scheme !== 'string' || typeof body.fields !== 'object' || !body.fields) {
          return json(400, { error: 'give scheme and fields' });
        }
        return json(200, { needs: session.setCredentials(body.scheme, body.fields as Body) });
      }
      case 'extended-card':
        return json(200, { card: await session.extendedCard(binding) });
      case 'call': {
        const operation = body.operation;
        if (!(UNARY as readonly unknown[]).includes(operation)) {
          return json(400, { error: `operation must be one of ${UNARY.join(', ')}` });
        }
        const result = await session.call(
          operation as (typeof UNARY)[number],
          body.params,
          binding,
        );
        return json(200, { result });
      }
      case 'stream':
        return stream(session, body, binding, request.signal);
      case 'push/register': {
        if (typeof body.taskId !== 'string' || !body.taskId)
          return json(400, { error: 'give taskId' });
        const jwks = typeof body.jwksUrl === 'string' && body.jwksUrl ? body.jwksUrl : undefined;
        return json(
          200,
          await session.registerPush(body.taskId, api.origin, api.hookPath, jwks, binding),
        );
      }
      case 'wire/clear':
        session.wire.clear();
        return json(200, {});
      default:
        return json(404, { error: `no API POST ${path}` });
    }
  } catch (error) {
    return json(200, { error: describeError(error) });
  }
}

/** Relays a stream as SSE: `data: {"event": TimelineEvent}` frames, then `{"end":true}` or an error. */
function stream(
  session: InspectorSession,
  body: Body,
  binding: string | undefined,
  signal: AbortSignal | undefined,
): HttpResponse {
  const operation = body.operation;
  if (!(STREAMING as readonly unknown[]).includes(operation)) {
    return json(400, { error: `operation must be one of ${STREAMING.join(', ')}` });
  }
  const events = session.stream(
    operation as (typeof STREAMING)[number],
    body.params,
    binding,
    signal,
  );
  async function* frames(): AsyncIterable<string> {
    try {
      for await (const event of events) yield `data: ${JSON.stringify({ event })}\n\n`;
      yield `data: ${JSON.stringify({ end: true })}\n\n`;
    } catch (error) {
      yield `data: ${JSON.stringify({ error: describeError(error) })}\n\n`;
    }
  }
  const response = json(200, null);
  return {
    status: 200,
    headers: { ...response.headers, 'content-type': 'text/event-stream' },
    body: frames(),
  };
}

function parseBody(raw: HttpRequest['body']): Body | undefined {
  if (raw === undefined) return {};
  const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Body)
      : undefined;
  } catch {
    return undefined;
  }
}
