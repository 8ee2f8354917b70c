/**
 * The A2A 0.3 gRPC path against 1.0 (issue 14 point 7: at most 10 % over 1.0): blocking sends of
 * the bench's echo agent to one `serveGrpc` with `compat: ['0.3']`, as 1.0 `SendMessage` on
 * `lf.a2a.v1.A2AService` and as 0.3 `SendMessage` on `a2a.v1.A2AService`, over loopback in this
 * process (gRPC has no socket-free entry), interleaved in rounds so machine noise hits both alike.
 * The client side is the same for both (raw grpc-js, each request encoded and each reply decoded
 * with proto-loader's codec of its own proto), so the difference is the server's 0.3 path:
 * decoding, the 0.3 ⇄ 1.0 conversions, encoding. Prints µs of CPU per send (client and server
 * together) and the 0.3/1.0 ratio. Run: `node bench/build.mjs && node
 * dist/bench-run/bench/inprocess/compat03-grpc.js [N]` (N sends per variant, default 10,000).
 */
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { serveGrpc } from '../../src/bindings/grpc/serve.js';
import { proto } from '../../src/bindings/grpc/proto.js';
import { protoV03 } from '../../src/bindings/grpc/v03-proto.js';
import { A2AServer } from '../../src/server/index.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';

const server = new A2AServer({ agent: kitEcho, logger: null, compat: ['0.3'] });
const grpc = await serveGrpc(server);
const client = new Client(grpc.url, credentials.createInsecure());

const V1 = {
  path: '/lf.a2a.v1.A2AService/SendMessage',
  request: proto().message('lf.a2a.v1.SendMessageRequest'),
  response: proto().message('lf.a2a.v1.SendMessageResponse'),
  body: (id: string) => ({
    message: { messageId: id, role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  }),
  metadata: () => {
    const m = new Metadata();
    m.set('a2a-version', '1.0');
    return m;
  },
};
const V03 = {
  path: '/a2a.v1.A2AService/SendMessage',
  request: protoV03().message('a2a.v1.SendMessageRequest'),
  response: protoV03().message('a2a.v1.SendMessageResponse'),
  body: (id: string) => ({
    request: { messageId: id, role: 'ROLE_USER', content: [{ text: 'hello' }] },
    configuration: { blocking: true },
  }),
  metadata: () => new Metadata(),
};
type Variant = typeof V1 | typeof V03;

function send(variant: Variant): Promise<void> {
  const bytes = variant.request.serialize(variant.body(nextMessageId()));
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      variant.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      variant.metadata(),
      {},
      (error: ServiceError | null, reply?: Buffer) => {
        if (error) return reject(error);
        const task = variant.response.deserialize(reply ?? Buffer.alloc(0)).task as
          { status?: { state?: string } } | undefined;
        if (task?.status?.state !== 'TASK_STATE_COMPLETED') {
          return reject(new Error(`not a completed echo task: ${JSON.stringify(task)}`));
        }
        resolve();
      },
    );
  });
}

const VARIANTS = [
  ['GRPC 1.0', V1],
  ['GRPC 0.3', V03],
] as const;
const total = Number(process.argv[2] ?? 10_000);
const rounds = 10;
const perRound = Math.ceil(total / rounds);
const cpu = new Map<string, number>(VARIANTS.map(([name]) => [name, 0]));
for (const [, variant] of VARIANTS) for (let i = 0; i < 1_000; i++) await send(variant);
for (let round = 0; round < rounds; round++) {
  for (const [name, variant] of VARIANTS) {
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; i++) await send(variant);
    const used = process.cpuUsage(before);
    cpu.set(name, (cpu.get(name) ?? 0) + used.user + used.system);
  }
}
const per = (name: string) => (cpu.get(name) ?? 0) / (perRound * rounds);
for (const [name] of VARIANTS) console.log(`${name.padEnd(10)} ${per(name).toFixed(1)} µs/send`);
console.log(`GRPC 0.3/1.0: ${(per('GRPC 0.3') / per('GRPC 1.0')).toFixed(3)}`);
client.close();
await grpc.close(0);
await server.close();
