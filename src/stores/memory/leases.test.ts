import { runInterruptedTaskIndexSuite, runLeaseStoreSuite } from '../../testing/index.js';
import { MemoryTaskStore } from './task-store.js';

runLeaseStoreSuite({ name: 'memory', create: () => new MemoryTaskStore() });
runInterruptedTaskIndexSuite({ name: 'memory', create: () => new MemoryTaskStore() });
