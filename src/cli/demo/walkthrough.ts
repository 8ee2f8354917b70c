/**
 * The task lifecycle walked step by step against a running agent (the demo agent's commands):
 * each step sends a real request, prints what comes back and checks it against the spec.
 */
import type { A2AClient } from '../../client/client.js';
import { lifecycleSteps } from './lifecycle.js';
import { moreSteps } from './more.js';
import type { Narrator } from './narrator.js';

/** Number of steps {@link walkthrough} prints. */
export const WALKTHROUGH_STEPS = 9;

/** Runs every step; throws WalkthroughError when the agent misbehaves. Returns the task ids. */
export async function walkthrough(
  client: A2AClient,
  n: Narrator,
  signal: AbortSignal,
): Promise<string[]> {
  const lifecycle = await lifecycleSteps(client, n, signal);
  return moreSteps(client, n, signal, lifecycle);
}
