/**
 * Reads Agent Card JSON exactly as published, from a file or a URL, for `card validate`,
 * `card sign` and `card verify` (signatures are checked over the JSON as received).
 */
import { readFile } from 'node:fs/promises';
import { cardUrl } from '../client/card-resolver.js';
import { TransportError } from '../transport/errors.js';
import { badStatus, buildHeaders, openExchange, snippet } from '../transport/http-exchange.js';
import type { ErrorContext } from './describe-error.js';
import { CliError, EXIT, UsageError } from './exit-codes.js';
import type { GlobalOptions } from './options.js';
import type { ReplyHeaders } from '../transport/http-send.js';

/** Card JSON and where it came from. */
export interface LoadedJson {
  json: unknown;
  /** The file path or the card URL. */
  source: string;
  /** The HTTP response headers, when read from a URL. */
  headers?: ReplyHeaders | undefined;
}

/** True when `source` names an http(s) URL rather than a file. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Reads and parses JSON from a file or URL; bad JSON is `CliError` exit 1 (invalid input). */
export async function loadJson(
  source: string,
  global: GlobalOptions,
  errors: ErrorContext,
  signal?: AbortSignal,
): Promise<LoadedJson> {
  if (!isUrl(source)) return { json: parse(await readText(source), source), source };
  const url = cardUrl(source);
  errors.url = source;
  errors.discovering = true;
  const exchange = await openExchange({
    url,
    method: 'GET',
    headers: buildHeaders({ layers: [global.headers], accept: 'application/json' }),
    timeoutMs: global.timeoutMs ?? 10_000,
    signal,
  });
  const text = await exchange.text();
  const { response } = exchange;
  if (!response.ok) {
    if (response.status === 404 || response.status === 410) {
      throw new TransportError('BAD_STATUS', `no agent card at ${url}`, {
        url,
        status: response.status,
      });
    }
    throw badStatus(response, url, text);
  }
  errors.discovering = false;
  return { json: parse(text, url), source: url, headers: response.headers };
}

/** Reads a text file; a missing file is a usage error. */
export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new UsageError(`no such file: ${path}`);
    throw new CliError(
      EXIT.USAGE,
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function parse(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CliError(
      EXIT.AGENT_ERROR,
      `${source} is not valid JSON: ${why} (${snippet(text, 60)})`,
    );
  }
}
