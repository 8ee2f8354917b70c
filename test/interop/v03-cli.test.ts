/**
 * The `a2a` CLI against a real 0.3 agent (./v03-sdk-server.ts, @a2a-js/sdk 0.3.14): discover,
 * send, send --stream, get and cancel work and say which version they speak (issue 14 point 5),
 * over its 0.3 gRPC interface too (`--binding GRPC`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from '../e2e/harness.js';
import { startSdk03Server, type Sdk03Server } from './v03-sdk-server.js';

let theirs: Sdk03Server;
beforeAll(async () => {
  theirs = await startSdk03Server({ grpc: true });
});
afterAll(async () => {
  await theirs.close();
});

describe('a2a CLI → 0.3 agent', () => {
  it('discover lists the 0.3 interfaces and selects one', async () => {
    const result = await cli(['discover', theirs.url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/A2A 0\.3/);
    expect(result.stderr).not.toMatch(/speaks protocol 0\.3 only/);
  });

  it('send, get and cancel speak 0.3 and say so; output is 1.0 form', async () => {
    const sent = await cliJson<{ task: { id: string; status: { state: string } } }>([
      'send',
      theirs.url,
      'hello',
    ]);
    expect(sent.code).toBe(0);
    expect(sent.stderr).toMatch(/speaking A2A 0\.3 \(JSONRPC/);
    expect(sent.json.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await cliJson<{ id: string }>(['get', theirs.url, sent.json.task.id]);
    expect(got.json.id).toBe(sent.json.task.id);
    const canceled = await cli(['cancel', theirs.url, sent.json.task.id, '--binding', 'HTTP+JSON']);
    expect(canceled.stderr).toMatch(/speaking A2A 0\.3 \(HTTP\+JSON/);
  });

  it('--binding GRPC: send, send --stream, get and cancel over 0.3 gRPC, saying so', async () => {
    const grpc = ['--binding', 'GRPC'];
    const sent = await cliJson<{ task: { id: string; status: { state: string } } }>([
      'send',
      theirs.url,
      'hello',
      ...grpc,
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/speaking A2A 0\.3 \(GRPC at 127\.0\.0\.1:\d+\)/);
    expect(sent.json.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await cliJson<{ id: string }>(['get', theirs.url, sent.json.task.id, ...grpc]);
    expect(got.json.id).toBe(sent.json.task.id);
    const canceled = await cli(['cancel', theirs.url, sent.json.task.id, ...grpc]);
    expect(canceled.stderr).toMatch(/speaking A2A 0\.3 \(GRPC/);
    expect(canceled.stderr).toMatch(/TASK_NOT_CANCELABLE|cannot be canceled/i);
    const streamed = await cli(['send', '--stream', theirs.url, 'go', '-o', 'json', ...grpc]);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toMatch(/artifactUpdate/);
  });

  it('send --stream shows the events of a 0.3 stream', async () => {
    const result = await cli(['send', '--stream', theirs.url, 'go', '-o', 'json']);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => 'artifactUpdate' in l)).toBe(true);
  });
});
