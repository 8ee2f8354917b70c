/**
 * Request/response over the Node IPC channel between the bench orchestrator and its child
 * processes (servers, load generator). Messages are plain JSON.
 */

/** A command sent to a child. */
export interface RpcRequest {
  readonly rpc: number;
  readonly command: string;
  readonly arg: unknown;
}

/** The answer to one command. */
export type RpcResponse =
  | { readonly rpc: number; readonly ok: true; readonly result: unknown }
  | { readonly rpc: number; readonly ok: false; readonly error: string };

/** Handlers of a child, by command name. */
export type RpcHandlers = Record<string, (arg: never) => unknown>;

/** The first message a child sends: it is listening (servers give their port). */
export interface ReadyMessage {
  readonly ready: true;
  readonly port?: number;
}

function isRequest(message: unknown): message is RpcRequest {
  return (
    typeof message === 'object' && message !== null && 'rpc' in message && 'command' in message
  );
}

/**
 * In a child: answers the parent's commands with `handlers`, then reports ready. The `exit`
 * command is built in: it answers, runs `onExit`, and ends the process (writing `--cpu-prof`).
 */
export function serveRpc(
  handlers: RpcHandlers,
  ready: Omit<ReadyMessage, 'ready'> = {},
  onExit?: () => Promise<void>,
): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('bench child started without an IPC channel');
  process.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    if (message.command === 'exit') {
      send({ rpc: message.rpc, ok: true, result: null } satisfies RpcResponse, () => {
        void (onExit?.() ?? Promise.resolve()).finally(() => process.exit(0));
      });
      return;
    }
    const handler = handlers[message.command] as ((arg: unknown) => unknown) | undefined;
    const reply = (response: RpcResponse) => send(response);
    if (handler === undefined) {
      reply({ rpc: message.rpc, ok: false, error: `unknown command ${message.command}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.arg))
      .then(
        (result) => reply({ rpc: message.rpc, ok: true, result: result ?? null }),
        (error: unknown) =>
          reply({
            rpc: message.rpc,
            ok: false,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
  // The parent going away ends the child (no orphans holding ports or cores).
  process.on('disconnect', () => process.exit(0));
  send({ ready: true, ...ready } satisfies ReadyMessage);
}

/** Reads `--name=value` style settings a child was started with (from its argv). */
export function childArg(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

/** Calls `globalThis.gc` (present with --expose-gc) a few times so the heap settles. */
export function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('start this process with --expose-gc');
  for (let i = 0; i < 4; i++) gc();
}

/** Heap and RSS after a full GC, and the CPU time used so far (µs). */
export interface ProcessStats {
  heapUsed: number;
  rss: number;
  cpuMicros: number;
  /** Minor page faults so far: the kernel zero-filling memory the process touches anew. */
  minorFaults: number;
}

/** This process's stats; `gc` runs a full collection first. */
export function processStats(gc: boolean): ProcessStats {
  if (gc) fullGc();
  const { heapUsed, rss } = process.memoryUsage();
  const { user, system } = process.cpuUsage();
  return {
    heapUsed,
    rss,
    cpuMicros: user + system,
    minorFaults: process.resourceUsage().minorPageFault,
  };
}
