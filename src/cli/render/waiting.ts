/**
 * Progress while a blocking call waits (`a2a send` without --stream): a spinner line with what
 * is awaited and the elapsed time, on stderr when it is a terminal, erased once the call returns,
 * so stdout carries the answer only.
 */
import type { Style, TextSink } from '../io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\x1b[2K';

/** Shows `label` with a spinner on `sink` (a terminal only) until `stop()`. */
export function showWaiting(sink: TextSink, style: Style, label: string): { stop(): void } {
  if (sink.isTTY !== true) return { stop: () => undefined };
  const started = Date.now();
  const width = Math.max(20, sink.columns ?? 100) - 1;
  let frame = 0;
  let drawn = false;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const line = `${FRAMES[frame] ?? ''} ${seconds}s ${label}`;
    frame = (frame + 1) % FRAMES.length;
    sink.write(`${CLEAR_LINE}${style.dim(line.slice(0, width))}`);
    drawn = true;
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  draw();
  return {
    stop() {
      clearInterval(timer);
      if (drawn) sink.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
