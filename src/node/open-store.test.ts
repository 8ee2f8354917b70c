import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../core/missing-dependency.js';
import { missingDriver, openStore, storeSettingsFromEnv } from './open-store.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openStore', () => {
  it('leaves the memory defaults to the server for `memory`', async () => {
    const opened = await openStore('memory');
    expect(opened).toMatchObject({ kind: 'memory', serverOptions: {}, exclusive: false });
  });

  it('opens a SQLite file, creating its directory, with ownership leases', async () => {
    const path = join(dir, 'nested', 'tasks.db');
    const opened = await openStore(`sqlite:${path}`);
    expect(opened.kind).toBe('sqlite');
    expect(opened.description).toBe(`SQLite file ${path}`);
    expect(opened.serverOptions.ownership).toEqual({});
    await opened.close();
  });

  it('is exclusive only while no other store has the file open', async () => {
    const path = join(dir, 'shared.db');
    const first = await openStore(path);
    const second = await openStore(path);
    expect([first.exclusive, second.exclusive]).toEqual([true, false]);
    await first.close();
    await second.close();
    const again = await openStore(path);
    expect(again.exclusive).toBe(true);
    await again.close();
  });
});

describe('storeSettingsFromEnv', () => {
  it('reads retention, schema and lease settings', () => {
    const env = {
      A2A_RETENTION_MS: '5000',
      A2A_PG_SCHEMA: 'agents',
      A2A_LEASE_TTL_MS: '2000',
      A2A_INSTANCE_ID: 'a',
    };
    expect(storeSettingsFromEnv(env)).toEqual({
      retentionMs: 5000,
      schema: 'agents',
      ownership: { leaseTtlMs: 2000, instanceId: 'a' },
    });
    expect(storeSettingsFromEnv({})).toEqual({
      retentionMs: undefined,
      schema: undefined,
      ownership: {},
    });
  });

  it('refuses a duration that is not a number', () => {
    expect(() => storeSettingsFromEnv({ A2A_LEASE_TTL_MS: '2s' })).toThrow(/A2A_LEASE_TTL_MS/);
  });
});

describe('missingDriver', () => {
  it('says what to install when an optional driver is missing', () => {
    const error = Object.assign(new Error("Cannot find package 'pg' imported from x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const missing = missingDriver('pg', error);
    expect(missing).toBeInstanceOf(MissingDependencyError);
    expect(missing).toMatchObject({ packages: ['pg'], install: 'npm install pg' });
    expect(missing.message).toMatch(/optional package pg.*install with `npm install pg`/);
    const other = new Error('connection refused');
    expect(missingDriver('pg', other)).toBe(other);
  });
});
