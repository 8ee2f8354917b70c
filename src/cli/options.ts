/**
 * Command-line parsing on `node:util` parseArgs: the global flags every verb accepts, typed
 * accessors for parsed values, and the global options read into one object.
 */
import { parseArgs } from 'node:util';
import { TASK_STATES, type TaskState } from '../core/schemas/index.js';
import { UsageError } from './exit-codes.js';

/** One flag, as parseArgs declares it. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

/** Flags keyed by long name. */
export type FlagSpecs = Record<string, FlagSpec>;

/** Parsed flag values. */
export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** The flags every verb accepts. */
export const GLOBAL_FLAGS: FlagSpecs = {
  output: { type: 'string', short: 'o' },
  binding: { type: 'string' },
  // The official Go CLI's names for the same things (a2a-go cmd/README.md), accepted too.
  transport: { type: 'string' },
  header: { type: 'string', multiple: true },
  'svc-param': { type: 'string', multiple: true },
  auth: { type: 'string' },
  tenant: { type: 'string' },
  timeout: { type: 'string' },
  token: { type: 'string' },
  'api-key': { type: 'string' },
  did: { type: 'string' },
  'did-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};

/** Help lines of the global flags. */
export const GLOBAL_FLAG_HELP: readonly (readonly [string, string])[] = [
  ['-o, --output text|json', 'text for people (default); json = exact ProtoJSON for scripts'],
  [
    '--binding JSONRPC|HTTP+JSON|GRPC',
    "use only this binding (default: the card's order; alias --transport)",
  ],
  ['--header NAME=VALUE', 'extra HTTP header on every request (repeatable; alias --svc-param)'],
  [
    '--auth CREDENTIALS',
    'Authorization header sent as given, e.g. "Bearer abc" (see also --token)',
  ],
  ['--tenant ID', "tenant sent in every request (default: the interface's tenant)"],
  [
    '--timeout SECONDS',
    'give up on a call after this long, retries included (default 30; 30s, 500ms also work)',
  ],
  ['--token TOKEN', "bearer token, sent as the card's HTTP/OAuth scheme asks"],
  ['--api-key [NAME=]VALUE', "API key, placed where the card's API key scheme says"],
  ['--did-key FILE', 'sign every request as a did:wba DID with this key (a2a did init)'],
  ['--did DID', 'the did:wba DID to sign as (default: the one did init stored in the key file)'],
  ['-h, --help', 'show help (`a2a <verb> --help` for one verb)'],
  ['--version', 'print the a2a-kit version'],
];

/** Parses `args` against the global flags plus `flags`; unknown flags are usage errors. */
export function parseFlags(
  args: string[],
  flags: FlagSpecs,
): { values: FlagValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...GLOBAL_FLAGS, ...flags },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** A string flag's value. */
export function stringFlag(values: FlagValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A boolean flag's value. */
export function booleanFlag(values: FlagValues, name: string): boolean {
  return values[name] === true;
}

/** Every value of a repeatable string flag. */
export function listFlag(values: FlagValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A whole number flag within [min, max], or undefined when absent. */
export function intFlag(
  values: FlagValues,
  name: string,
  min: number,
  max = 2_147_483_647,
): number | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** `NAME=VALUE` (or `NAME: VALUE`) split in two. */
export function keyValue(raw: string, flag: string): [string, string] {
  const match = /^([^=:]+)(?:=|:\s*)(.*)$/s.exec(raw);
  const name = match?.[1]?.trim();
  if (!match || !name) throw new UsageError(`${flag} expects NAME=VALUE, got "${raw}"`);
  return [name, match[2] ?? ''];
}

/**
 * A task state from `working`, `WORKING`, `input-required` or `TASK_STATE_WORKING`; a usage
 * error listing the valid ones otherwise.
 */
export function parseTaskState(raw: string): TaskState {
  const upper = raw.trim().toUpperCase().replace(/-/g, '_');
  const full = upper.startsWith('TASK_STATE_') ? upper : `TASK_STATE_${upper}`;
  const found = TASK_STATES.find((s) => s === full);
  if (found) return found;
  const names = TASK_STATES.map((s) => s.slice('TASK_STATE_'.length).toLowerCase());
  throw new UsageError(`unknown task state "${raw}"`, `use one of: ${names.join(', ')}`);
}

/** The bindings `--binding` accepts, with friendly aliases. */
const BINDING_ALIASES: Record<string, string> = {
  JSONRPC: 'JSONRPC',
  'JSON-RPC': 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  REST: 'HTTP+JSON',
  HTTP: 'HTTP+JSON',
  GRPC: 'GRPC',
};

/** The options every command reads from the global flags. */
export interface GlobalOptions {
  json: boolean;
  binding?: string | undefined;
  headers: Record<string, string>;
  tenant?: string | undefined;
  timeoutMs?: number | undefined;
  token?: string | undefined;
  apiKey?: { name?: string | undefined; value: string } | undefined;
  /** `--did-key FILE`: sign requests as a did:wba DID with this private key. */
  didKey?: string | undefined;
  /** `--did DID`: the DID (default: the one stored in the key file). */
  did?: string | undefined;
}

/** Reads and checks the global flags. */
export function globalOptions(values: FlagValues): GlobalOptions {
  const output = stringFlag(values, 'output') ?? 'text';
  if (output !== 'text' && output !== 'json') {
    throw new UsageError(`-o/--output must be text or json, got "${output}"`);
  }
  const options: GlobalOptions = { json: output === 'json', headers: {} };
  const binding = stringFlag(values, 'binding') ?? stringFlag(values, 'transport');
  if (binding !== undefined) {
    options.binding = BINDING_ALIASES[binding.toUpperCase()];
    if (!options.binding) {
      throw new UsageError(`unknown binding "${binding}"`, 'use JSONRPC, HTTP+JSON or GRPC');
    }
  }
  for (const raw of listFlag(values, 'header')) {
    const [name, value] = keyValue(raw, '--header');
    options.headers[name] = value;
  }
  for (const raw of listFlag(values, 'svc-param')) {
    const [name, value] = keyValue(raw, '--svc-param');
    options.headers[name] = value;
  }
  const auth = stringFlag(values, 'auth');
  if (auth !== undefined) options.headers.Authorization = auth;
  options.tenant = stringFlag(values, 'tenant');
  const timeout = stringFlag(values, 'timeout');
  if (timeout !== undefined) {
    // Seconds (`30`), or a duration as the Go CLI writes it (`30s`, `500ms`).
    const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(timeout);
    const seconds = match ? Number(match[1]) / (match[2] === 'ms' ? 1000 : 1) : NaN;
    if (!match || seconds <= 0) {
      throw new UsageError(`--timeout must be a positive number of seconds, got "${timeout}"`);
    }
    options.timeoutMs = Math.round(seconds * 1000);
  }
  options.token = stringFlag(values, 'token');
  const apiKey = stringFlag(values, 'api-key');
  if (apiKey !== undefined) {
    const eq = apiKey.indexOf('=');
    options.apiKey =
      eq > 0 ? { name: apiKey.slice(0, eq), value: apiKey.slice(eq + 1) } : { value: apiKey };
  }
  options.didKey = stringFlag(values, 'did-key');
  options.did = stringFlag(values, 'did');
  return options;
}
