/**
 * Child processes of the bench: each server and the load generator run in their own process,
 * pinned to their own core with `taskset` when the machine has two or more, so the load
 * generator never shares an event loop (or a core) with the server it measures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { ReadyMessage, RpcResponse } from './ipc.js';

/** Which core servers and the load generator run on (undefined: not pinned). */
export interface Pinning {
  readonly server: string;
  readonly load: string;
}

/** Cores 0 and 1 when `taskset` works and there are at least two cores. */
export function detectPinning(): Pinning | undefined {
  if (availableParallelism() < 2) return undefined;
  const probe = spawnSync('taskset', ['-c', '0', process.execPath, '-e', ''], { stdio: 'ignore' });
  return probe.status === 0 ? { server: '0', load: '1' } : undefined;
}

/** How to start one child. */
export interface ChildOptions {
  /** Label used in messages. */
  name: string;
  /** Absolute path of the compiled script. */
  script: string;
  /** `--name=value` settings the script reads with `childArg`. */
  args?: readonly string[];
  /** Core to pin to (`taskset -c`), when pinning. */
  cpu?: string | undefined;
  /** Node flags (`--expose-gc`, `--cpu-prof`). */
  nodeFlags?: readonly string[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A running child that answers commands over IPC. */
export class Child {
  private nextRpc = 1;
  private readonly pending = new Map<number, Pending>();
  private exited: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly process: ChildProcess,
    readonly port: number | undefined,
  ) {
    this.exited = new Promise((resolve) => process.once('exit', () => resolve()));
    process.on('message', (message: RpcResponse) => {
      const waiting = this.pending.get(message.rpc);
      if (waiting === undefined) return;
      this.pending.delete(message.rpc);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(new Error(`${name}: ${message.error}`));
    });
    process.once('exit', (code, signal) => {
      for (const waiting of this.pending.values()) {
        waiting.reject(new Error(`${name} exited (${signal ?? code ?? '?'})`));
      }
      this.pending.clear();
    });
  }

  /** Starts the child and waits until it reports ready (a server: listening). */
  static async start(options: ChildOptions): Promise<Child> {
    const node = [...(options.nodeFlags ?? []), options.script, ...(options.args ?? [])];
    const [command, args] =
      options.cpu === undefined
        ? [process.execPath, node]
        : ['taskset', ['-c', options.cpu, process.execPath, ...node]];
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await new Promise<ReadyMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`${options.name} did not start in 60 s`)),
        60_000,
      );
      const onExit = (code: number | null) => fail(new Error(`${options.name} exited (${code})`));
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.kill('SIGKILL');
        reject(error);
      };
      child.once('exit', onExit);
      child.once('message', (message: ReadyMessage) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(message);
      });
    });
    return new Child(options.name, child, ready.port);
  }

  /** The base URL of a server child. */
  get url(): string {
    if (this.port === undefined) throw new Error(`${this.name} is not a server`);
    return `http://127.0.0.1:${this.port}`;
  }

  /** Sends a command and resolves to its result. */
  call<T>(command: string, arg: unknown = null): Promise<T> {
    const rpc = this.nextRpc++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rpc, { resolve: resolve, reject });
      this.process.send({ rpc, command, arg }, (error) => {
        if (error === null) return;
        this.pending.delete(rpc);
        reject(error);
      });
    });
  }

  /** Asks the child to exit (so `--cpu-prof` is written), killing it after 10 s. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.call('exit').catch(() => undefined);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
