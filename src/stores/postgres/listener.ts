/**
 * One dedicated connection that LISTENs on a channel, kept alive: a heartbeat notices a dead
 * connection, and a lost one is replaced with exponential backoff (and jitter) until it LISTENs
 * again, after which `onReconnect` runs so subscribers can catch up with what they missed.
 */
import { Client, type ClientConfig, type Notification } from 'pg';

/** Options of {@link Listener}. */
export interface ListenerOptions {
  /** Settings of the dedicated connection (those of the store's pool). */
  connection: ClientConfig;
  /** A validated identifier (it is interpolated into LISTEN). */
  channel: string;
  onPayload: (payload: string) => void;
  onReconnect: () => void;
  logger: Pick<Console, 'warn' | 'error'> | undefined;
  /** Period of the liveness query on the listening connection (default 15 s). */
  heartbeatMs?: number;
  /** First and maximum delay between reconnection attempts (default 100 ms and 5 s). */
  backoffMs?: { initial: number; max: number };
}

/** A LISTEN connection that reconnects by itself. */
export class Listener {
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private sleeping: { timer: ReturnType<typeof setTimeout>; wake: () => void } | undefined;
  private listenedBefore = false;
  private closed = false;

  constructor(private readonly options: ListenerOptions) {}

  /** True while LISTEN is active. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Resolves once LISTEN is active (connecting first if needed); retries until closed. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('a2a-kit: the event bus is closed'));
    if (this.client) return Promise.resolve();
    return (this.connecting ??= this.connectLoop());
  }

  /** Stops listening for good and releases the connection. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopHeartbeat();
    if (this.sleeping) {
      clearTimeout(this.sleeping.timer);
      this.sleeping.wake();
    }
    const client = this.client;
    this.client = undefined;
    await this.connecting?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  /** Connects until LISTEN works; after a lost connection (`pause`) it waits before the first try. */
  private async connectLoop(pause = false): Promise<void> {
    const { initial, max } = this.options.backoffMs ?? { initial: 100, max: 5_000 };
    if (pause) await this.sleep(initial * (0.5 + Math.random() / 2));
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new Error('a2a-kit: the event bus is closed');
      try {
        await this.listen();
        this.connecting = undefined;
        if (this.listenedBefore) this.options.onReconnect();
        this.listenedBefore = true;
        return;
      } catch (error) {
        if (this.closed) throw error;
        const delay = Math.min(max, initial * 2 ** attempt) * (0.5 + Math.random() / 2);
        this.options.logger?.warn(
          `a2a-kit: LISTEN ${this.options.channel} failed, retrying in ${Math.round(delay)} ms:`,
          error,
        );
        await this.sleep(delay);
      }
    }
  }

  /** A pause that close() cuts short. */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((wake) => {
      this.sleeping = { timer: setTimeout(wake, ms), wake };
    });
    this.sleeping = undefined;
  }

  private async listen(): Promise<void> {
    // Not a pool member: pool.end() would wait for a connection that is never released.
    const client = new Client(this.options.connection);
    const onNotification = (n: Notification) => {
      if (n.channel === this.options.channel && n.payload) this.options.onPayload(n.payload);
    };
    const onLost = (error?: Error) => this.lost(client, error);
    client.on('notification', onNotification);
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined); // its listeners ignore a client not current
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('a2a-kit: the event bus is closed');
    }
    this.client = client;
    this.startHeartbeat(client);
  }

  /** The listening connection failed: drop it and reconnect in the background. */
  private lost(client: Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.stopHeartbeat();
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.logger?.warn(`a2a-kit: LISTEN connection lost, reconnecting:`, error ?? 'ended');
    this.connecting ??= this.connectLoop(true);
    this.connecting.catch(() => undefined);
  }

  private startHeartbeat(client: Client): void {
    const every = this.options.heartbeatMs ?? 15_000;
    this.heartbeat = setInterval(() => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('heartbeat timed out')), every);
      });
      Promise.race([client.query('SELECT 1'), timeout])
        .catch((error: unknown) =>
          this.lost(client, error instanceof Error ? error : new Error(String(error))),
        )
        .finally(() => clearTimeout(timer));
    }, every);
    this.heartbeat.unref?.();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
