import { runPushConfigStoreSuite, runPushOutboxSuite } from '../../testing/index.js';
import { MemoryTaskStore } from './task-store.js';

runPushConfigStoreSuite({ name: 'memory', create: () => new MemoryTaskStore() });
runPushOutboxSuite({ name: 'memory', create: () => new MemoryTaskStore() });
