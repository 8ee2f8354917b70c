/**
 * Starts the TCK agent for a run of the official TCK (docs/conformance.md):
 *   npm run tck:agent -- [--port 9999] [--grpc-port 10000] [--host 127.0.0.1] [--no-push]
 * then `./run_tck.py --sut-host http://localhost:9999` in a checkout of a2aproject/a2a-tck.
 */
import { parseArgs } from 'node:util';
import { startTckAgent } from './start.js';

const USAGE = `Usage: npm run tck:agent -- [--port N] [--grpc-port N] [--host H] [--no-push]
  --port N       HTTP port: the TCK's --sut-host (default 9999)
  --grpc-port N  gRPC port (default: the HTTP port + 1)
  --host H       interface to bind (default 127.0.0.1)
  --no-push      do not declare push notifications (runs the TCK's "not supported" checks)`;

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new Error(`Invalid ${name} "${value}": use a number from 0 to 65535`);
  }
  return Number(value);
}

async function main(): Promise<void> {
  let options;
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string' },
        'grpc-port': { type: 'string' },
        host: { type: 'string' },
        'no-push': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return;
    }
    const http = port(values.port, 9999, 'port');
    options = {
      port: http,
      grpcPort: port(values['grpc-port'], http === 0 ? 0 : http + 1, 'gRPC port'),
      host: values.host ?? '127.0.0.1',
      push: !values['no-push'],
    };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const agent = await startTckAgent(options);
  console.log(
    [
      'a2a-kit TCK agent is running',
      `  Agent Card  ${agent.url}/.well-known/agent-card.json`,
      `  gRPC        ${agent.grpcUrl}`,
      `  Push        ${options.push ? 'on (webhooks to localhost allowed)' : 'off'}`,
      `Run the TCK:  ./run_tck.py --sut-host ${agent.url}`,
    ].join('\n'),
  );
  const stop = () => {
    agent.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
