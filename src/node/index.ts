/** `a2a-kit/node`: serve an agent over node:http (the only node:http importer, DESIGN §2). */
export { serve } from './serve.js';
export type { ServeOptions, ServeResult } from './serve.js';
export { toNodeListener } from './listener.js';
export type { NodeListener, NodeListenerOptions } from './listener.js';
