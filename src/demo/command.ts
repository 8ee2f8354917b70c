/** Reading the demo command out of a user message, plus small helpers the behaviours share. */
import { dataOf, textOf } from '../server/index.js';
import type { Message } from '../index.js';

/** A command word and the rest of the text after it. */
export interface Command {
  /** The first word, lower-cased (empty when the message has no text). */
  readonly name: string;
  /** Everything after the first word, trimmed. */
  readonly args: string;
  /** The whole text the command was read from. */
  readonly text: string;
}

/**
 * The command of a message: the text of its text parts, or the `command` string of a data part
 * (`{"command": "story 5"}`), split into its first word and the rest.
 */
export function parseCommand(message: Message): Command {
  const data = dataOf(message);
  const fromData = isRecord(data) && typeof data.command === 'string' ? data.command : undefined;
  const text = (fromData ?? textOf(message)).trim();
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text);
  return {
    name: match?.[1]?.toLowerCase() ?? '',
    args: match?.[2]?.trim() ?? '',
    text,
  };
}

/** The first argument as a whole number within [min, max], or `fallback` when absent or invalid. */
export function intArg(args: string, fallback: number, min: number, max: number): number {
  const first = args.split(/\s+/)[0] ?? '';
  if (!/^\d+$/.test(first)) return fallback;
  return Math.min(max, Math.max(min, Number(first)));
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Waits `ms` milliseconds; resolves `false` early (never rejects) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
