/**
 * The structured logger a2a-kit writes its request and task lines to: pino's calling convention
 * (`logger.info({ taskId, … }, 'message')`), so a pino logger is taken as is, and so is `console`
 * (it prints the object, then the message). What is logged never carries credentials: fields
 * are ids, names, states, codes and durations (docs/observability.md lists them).
 */

/** Severity of a line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels in order, for filtering (`LOG_LEVELS.indexOf(a) >= LOG_LEVELS.indexOf(b)`). */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** One method per level: structured fields first, then a short message (pino's order). */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
