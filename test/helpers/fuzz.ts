/**
 * fast-check arbitraries for the fuzz suite: valid SendMessage / GetTask / ListTasks / CancelTask
 * requests, mutations of them (dropped fields, changed types, garbage), random JSON, random bytes,
 * random paths, verbs and headers.
 */
import fc from 'fast-check';

/** A JSON value we can mutate in place. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Random JSON (fast-check's JsonValue marks object members optional; they never are). */
const anyJson = (maxDepth: number) => fc.jsonValue({ maxDepth }) as fc.Arbitrary<Json>;

const TEXTS = ['echo fuzz', 'reply fuzz', 'chunks 2', 'reject', 'ask', 'fail'];

const message = fc.record(
  {
    messageId: fc.oneof(fc.uuid(), fc.string({ maxLength: 8 })),
    role: fc.constantFrom<Json>('ROLE_USER', 1, 'ROLE_AGENT'),
    parts: fc.array(
      fc.oneof(fc.record({ text: fc.constantFrom(...TEXTS) }), fc.record({ data: anyJson(2) })),
      { minLength: 1, maxLength: 2 },
    ),
    contextId: fc.string({ maxLength: 12 }),
    referenceTaskIds: fc.array(fc.string({ maxLength: 6 }), { maxLength: 2 }),
  },
  { requiredKeys: ['messageId', 'role', 'parts'] },
);

/** Valid (or nearly valid) request params per operation. */
export const baseParams = {
  SendMessage: fc.record(
    {
      message,
      configuration: fc.record(
        {
          returnImmediately: fc.boolean(),
          historyLength: fc.integer({ min: -1, max: 5 }),
          acceptedOutputModes: fc.array(fc.constantFrom('text/plain', 'application/json')),
        },
        { requiredKeys: [] },
      ),
      metadata: fc.dictionary(fc.string({ maxLength: 6 }), anyJson(2)),
    },
    { requiredKeys: ['message'] },
  ),
  GetTask: fc.record(
    { id: fc.string({ maxLength: 40 }), historyLength: fc.integer({ min: -2, max: 5 }) },
    { requiredKeys: ['id'] },
  ),
  ListTasks: fc.record(
    {
      pageSize: fc.integer({ min: -1, max: 120 }),
      pageToken: fc.string({ maxLength: 20 }),
      contextId: fc.string({ maxLength: 12 }),
      status: fc.constantFrom('TASK_STATE_COMPLETED', 'TASK_STATE_INPUT_REQUIRED', 'DONE', 3),
      includeArtifacts: fc.boolean(),
      historyLength: fc.integer({ min: -1, max: 3 }),
      statusTimestampAfter: fc.constantFrom(
        '2020-01-01T00:00:00Z',
        'yesterday',
        '2020-01-01T00:00:00+02:00',
      ),
    },
    { requiredKeys: [] },
  ),
  CancelTask: fc.record({ id: fc.string({ maxLength: 40 }) }, { requiredKeys: ['id'] }),
};
export type FuzzOperation = keyof typeof baseParams;
export const FUZZ_OPERATIONS = Object.keys(baseParams) as FuzzOperation[];

type Mutation =
  | { kind: 'drop'; pick: number }
  | { kind: 'retype'; pick: number; value: Json }
  | { kind: 'add'; pick: number; key: string; value: Json }
  | { kind: 'wrap' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('retype' as const),
    pick: fc.nat(),
    value: anyJson(2),
  }),
  fc.record({
    kind: fc.constant('add' as const),
    pick: fc.nat(),
    key: fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom('__proto__', 'constructor', 'kind', 'context_id'),
    ),
    value: anyJson(2),
  }),
  fc.record({ kind: fc.constant('wrap' as const) }),
);

/** Every object or array inside `value`, with the keys it holds. */
function containers(value: Json, out: (Json[] | { [k: string]: Json })[] = []) {
  if (Array.isArray(value)) {
    out.push(value);
    for (const v of value) containers(v, out);
  } else if (typeof value === 'object' && value !== null) {
    out.push(value);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

function setOwn(target: { [k: string]: Json }, key: string, value: Json): void {
  // defineProperty: a generated `__proto__` key must be data, not a prototype change.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Applies mutations to a deep copy of `value`. */
export function mutate(value: Json, mutations: readonly Mutation[]): Json {
  let root = JSON.parse(JSON.stringify(value)) as Json;
  for (const m of mutations) {
    if (m.kind === 'wrap') {
      root = [root];
      continue;
    }
    const all = containers(root);
    const target = all[m.pick % Math.max(1, all.length)];
    if (target === undefined) continue;
    const keys = Array.isArray(target) ? target.map((_, i) => String(i)) : Object.keys(target);
    const key = keys[m.pick % Math.max(1, keys.length)];
    if (m.kind === 'add') {
      if (Array.isArray(target)) target.push(m.value);
      else setOwn(target, m.key, m.value);
    } else if (key === undefined) {
      continue;
    } else if (Array.isArray(target)) {
      if (m.kind === 'drop') target.splice(Number(key), 1);
      else target[Number(key)] = m.value;
    } else if (m.kind === 'drop') {
      delete target[key];
    } else {
      setOwn(target, key, m.value);
    }
  }
  return root;
}

/** A request body and, when it is JSON, its value. */
export interface FuzzBody {
  params: Json;
  text: string | Uint8Array;
}

/** A request body: mutated valid params, random JSON, random text or random bytes. */
export function bodyFor(operation: FuzzOperation): fc.Arbitrary<FuzzBody> {
  const mutations = fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
  );
  const mutated = fc
    .tuple(baseParams[operation] as fc.Arbitrary<Json>, mutations)
    .map(([params, ms]) => mutate(params, ms));
  return fc.oneof(
    {
      weight: 6,
      arbitrary: mutated.map((params): FuzzBody => ({ params, text: JSON.stringify(params) })),
    },
    {
      weight: 1,
      arbitrary: anyJson(3).map((params): FuzzBody => ({ params, text: JSON.stringify(params) })),
    },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 60 }).map((text): FuzzBody => ({ params: null, text })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 60 }).map((text): FuzzBody => ({ params: null, text })),
    },
  );
}

export const versions = fc.constantFrom<string | null>(
  '1.0',
  '1.0',
  '1.0',
  '1.0.3',
  '0.3',
  '',
  null,
  '2.0',
);
export const contentTypes = fc.constantFrom<string | null>(
  'application/json',
  'application/a2a+json',
  'application/json; charset=utf-8',
  'text/plain',
  'multipart/form-data',
  null,
);
export const verbs = fc.constantFrom(
  'GET',
  'POST',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
);

const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.constantFrom(
    'tasks',
    'message:send',
    'message:stream',
    'x:cancel',
    'x:subscribe',
    'pushNotificationConfigs',
    'extendedAgentCard',
    'v1',
    '%00',
    '%ZZ',
  ),
);

/** A REST path: one of the spec routes with random ids, or random segments. */
export const restPaths = fc.oneof(
  fc.constantFrom('/message:send', '/message:stream', '/tasks', '/extendedAgentCard'),
  segment.map((id) => `/tasks/${id}`),
  segment.map((id) => `/tasks/${id}:cancel`),
  segment.map((id) => `/tasks/${id}:subscribe`),
  fc.tuple(segment, segment).map(([t, id]) => `/tasks/${t}/pushNotificationConfigs/${id}`),
  fc
    .tuple(segment, fc.constantFrom('/message:send', '/tasks'))
    .map(([tenant, p]) => `/${tenant}${p}`),
  fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`),
);

/** A query string: random names and values, sometimes the spec's parameter names. */
export const queries = fc
  .dictionary(
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        'pageSize',
        'historyLength',
        'includeArtifacts',
        'status',
        'pageToken',
        'A2A-Version',
      ),
    ),
    fc.string({ maxLength: 8 }),
    { maxKeys: 3 },
  )
  .map((q) => new URLSearchParams(q).toString());

/** A REST request: verb, path (relative to the binding base), query string, body. */
export interface RestRequest {
  verb: string;
  path: string;
  query: string;
  body: string | Uint8Array | null;
}

/** Top-level scalar fields of `params` as a query string; objects go in as JSON text. */
function toQuery(params: Json, skip: string): string {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return '';
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (k !== skip) query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return query.toString();
}

function idOf(params: Json): string {
  const id =
    typeof params === 'object' && params !== null && !Array.isArray(params) ? params.id : undefined;
  return encodeURIComponent(typeof id === 'string' ? id : JSON.stringify(id ?? null));
}

/** A request aimed at the route of `operation`, with its verb, and a mutated request. */
function routed(operation: FuzzOperation): fc.Arbitrary<RestRequest> {
  return fc
    .tuple(bodyFor(operation), fc.boolean())
    .map(([{ params, text }, stream]): RestRequest => {
      switch (operation) {
        case 'SendMessage':
          return {
            verb: 'POST',
            path: stream ? '/message:stream' : '/message:send',
            query: '',
            body: text,
          };
        case 'GetTask':
          return {
            verb: 'GET',
            path: `/tasks/${idOf(params)}`,
            query: toQuery(params, 'id'),
            body: null,
          };
        case 'ListTasks':
          return { verb: 'GET', path: '/tasks', query: toQuery(params, ''), body: null };
        case 'CancelTask':
          return { verb: 'POST', path: `/tasks/${idOf(params)}:cancel`, query: '', body: text };
      }
    });
}

/** Mostly requests aimed at real routes with mutated content; sometimes anything at all. */
export const restRequests: fc.Arbitrary<RestRequest> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FUZZ_OPERATIONS).chain(routed) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        verb: verbs,
        path: restPaths,
        query: queries,
        body: fc.constantFrom(...FUZZ_OPERATIONS).chain(bodyFor),
      })
      .map((r) => ({ ...r, body: r.verb === 'GET' || r.verb === 'HEAD' ? null : r.body.text })),
  },
);
