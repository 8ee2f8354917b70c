/**
 * The structured logger of `a2a serve --log-format json|pretty --log-level L`: one line per
 * request and per task transition (and push outcome) on stderr. `json` writes one JSON object
 * per line (`level`, `time`, `msg`, then the fields), as pino does; `pretty` a readable line.
 * The fields come from a2a-kit's request and transition logs, which never carry credentials.
 */
import { LOG_LEVELS, type LogLevel, type Logger } from '../../core/logger.js';
import { UsageError } from '../exit-codes.js';

/** The two formats of `--log-format`. */
export type LogFormat = 'json' | 'pretty';

/** A Logger writing `format` lines at `level` and above through `write`. */
export function lineLogger(
  format: LogFormat,
  level: LogLevel,
  write: (line: string) => void,
): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at =
    (name: LogLevel) =>
    (fields: object, message = ''): void => {
      if (LOG_LEVELS.indexOf(name) < min) return;
      write(
        format === 'json' ? jsonLine(name, fields, message) : prettyLine(name, fields, message),
      );
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** `--log-format` and `--log-level` as given; undefined when neither is (no request log). */
export function logFlags(
  format: string | undefined,
  level: string | undefined,
): { format: LogFormat; level: LogLevel } | undefined {
  if (format === undefined && level === undefined) return undefined;
  const f = format ?? 'pretty';
  if (f !== 'json' && f !== 'pretty') {
    throw new UsageError(`--log-format ${f} is not a format`, 'use --log-format json or pretty');
  }
  const l = level ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(l)) {
    throw new UsageError(`--log-level ${l} is not a level`, `use one of ${LOG_LEVELS.join(', ')}`);
  }
  return { format: f, level: l as LogLevel };
}

function jsonLine(level: LogLevel, fields: object, msg: string): string {
  return `${JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields })}\n`;
}

function prettyLine(level: LogLevel, fields: object, msg: string): string {
  const time = new Date().toISOString().slice(11, 23);
  const rest = Object.entries(fields)
    .filter(([k]) => k !== 'event')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${time} ${level.toUpperCase().padEnd(5)} ${msg}${rest ? `  ${rest}` : ''}\n`;
}
