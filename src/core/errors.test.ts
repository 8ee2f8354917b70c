import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  A2AError,
  CODE_BY_JSONRPC,
  ERROR_BOUNDS,
  ERROR_CATALOG,
  boundText,
  errorDetails,
  reasonFromDetails,
} from './errors.js';

describe('error catalog', () => {
  it('[159] is documented in docs/errors.md exactly as mapped', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = doc
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim().replace(/`/g, '')));
    const documented = rows.map(([, code, kind, jsonrpc, http, grpc]) => ({
      code,
      kind,
      jsonrpc,
      http,
      grpc,
    }));
    const catalog = Object.entries(ERROR_CATALOG).map(([code, m]) => ({
      code,
      kind: m.a2a ? 'A2A' : 'generic',
      jsonrpc: String(m.jsonrpc),
      http: String(m.http),
      grpc: m.grpc,
    }));
    expect(documented).toEqual(catalog);
  });

  it('[169] gives the A2A errors the codes -32001..-32009 and v1.0.1 statuses', () => {
    const a2a = Object.values(ERROR_CATALOG).filter((m) => m.a2a);
    expect(a2a.map((m) => m.jsonrpc)).toEqual([
      -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009, -32010,
    ]);
    expect(ERROR_CATALOG.TASK_NOT_CANCELABLE.http).toBe(400);
    expect(ERROR_CATALOG.VERSION_NOT_SUPPORTED.grpc).toBe('FAILED_PRECONDITION');
  });

  it("maps the 1.1 draft's TaskGenerationMismatchError as the draft does (spec dev-1.1 §5.4)", () => {
    expect(ERROR_CATALOG.TASK_GENERATION_MISMATCH).toMatchObject({
      a2a: true,
      jsonrpc: -32010,
      http: 409,
      grpc: 'ABORTED',
    });
  });

  it('gives PAYLOAD_TOO_LARGE an ErrorInfo in the a2a-kit domain, read back by clients', () => {
    const error = new A2AError('PAYLOAD_TOO_LARGE', 'too big', {
      metadata: { maxBodyBytes: '10' },
    });
    const details = errorDetails(error);
    expect(details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'PAYLOAD_TOO_LARGE',
        domain: 'a2a-kit',
        metadata: { maxBodyBytes: '10' },
      },
    ]);
    expect(reasonFromDetails(details)).toBe('PAYLOAD_TOO_LARGE');
    // Other generic errors carry none, and a kit-domain reason is read only for PAYLOAD_TOO_LARGE.
    expect(
      errorDetails(new A2AError('INVALID_PARAMS', 'x', { metadata: { taskId: 't' } })),
    ).toEqual([]);
    expect(reasonFromDetails([{ reason: 'INVALID_PARAMS', domain: 'a2a-kit' }])).toBeUndefined();
    expect(reasonFromDetails([{ reason: 'TASK_NOT_FOUND', domain: 'a2a-kit' }])).toBeUndefined();
  });

  it('[158,165] builds ErrorInfo with reason and domain, and BadRequest for field violations', () => {
    const error = new A2AError('TASK_NOT_FOUND', 'no', { metadata: { taskId: 't' } });
    expect(errorDetails(error)).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
        metadata: { taskId: 't' },
      },
    ]);
    const invalid = new A2AError('INVALID_PARAMS', 'bad', {
      fieldViolations: [{ field: 'id', description: 'is required' }],
    });
    expect(errorDetails(invalid)).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'id', description: 'is required' }],
      },
    ]);
  });

  it('reads the reason back from received details and maps JSON-RPC codes', () => {
    expect(reasonFromDetails(errorDetails(new A2AError('VERSION_NOT_SUPPORTED')))).toBe(
      'VERSION_NOT_SUPPORTED',
    );
    expect(
      reasonFromDetails([{ reason: 'TASK_NOT_FOUND', domain: 'example.com' }]),
    ).toBeUndefined();
    expect(CODE_BY_JSONRPC.get(-32001)).toBe('TASK_NOT_FOUND');
    expect(CODE_BY_JSONRPC.get(-32600)).toBe('INVALID_REQUEST');
  });
});

describe('error bounds (a client value echoed into an error stays small)', () => {
  it('cuts a long message and says how much was left out', () => {
    const error = new A2AError('TASK_NOT_FOUND', `Task ${'x'.repeat(1_000_000)} not found`);
    expect(error.message.length).toBeLessThanOrEqual(ERROR_BOUNDS.message);
    expect(error.message).toMatch(/^Task x+… \(\d+ more characters\)$/);
    const original = `Task ${'x'.repeat(1_000_000)} not found`.length;
    const rest = Number(/\((\d+) more/.exec(error.message)?.[1]);
    expect(error.message.indexOf('…') + rest).toBe(original);
  });

  it('keeps short texts as they are and never splits a surrogate pair', () => {
    expect(boundText('short', 10)).toBe('short');
    const cut = boundText('😀'.repeat(100), 40);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(Buffer.from(cut, 'utf8').toString('utf8'), 'no lone surrogate').toBe(cut);
  });

  it('bounds ErrorInfo metadata values and entries', () => {
    const metadata: Record<string, string> = { taskId: 'y'.repeat(50_000) };
    for (let i = 0; i < 100; i++) metadata[`k${i}`] = 'v';
    const error = new A2AError('TASK_NOT_FOUND', undefined, { metadata });
    expect(Object.keys(error.metadata)).toHaveLength(ERROR_BOUNDS.metadataEntries);
    expect(error.metadata.taskId?.length).toBeLessThanOrEqual(ERROR_BOUNDS.metadataValue);
    const small = { taskId: 't-1' };
    expect(new A2AError('TASK_NOT_FOUND', undefined, { metadata: small }).metadata).toBe(small);
  });

  it('bounds field violations in number and length, counting the ones left out', () => {
    const fieldViolations = Array.from({ length: 5000 }, (_, i) => ({
      field: `message.parts.${i}.${'f'.repeat(10_000)}`,
      description: 'd'.repeat(10_000),
    }));
    const error = new A2AError('INVALID_PARAMS', 'bad', { fieldViolations });
    expect(error.fieldViolations).toHaveLength(ERROR_BOUNDS.violations);
    for (const v of error.fieldViolations) {
      expect(v.field.length).toBeLessThanOrEqual(ERROR_BOUNDS.violationText);
      expect(v.description.length).toBeLessThanOrEqual(ERROR_BOUNDS.violationText);
    }
    expect(error.fieldViolations.at(-1)).toEqual({
      field: '',
      description: `${5000 - (ERROR_BOUNDS.violations - 1)} more violations`,
    });
  });
});
