/**
 * The meter of one task (docs/extensions/accounting.md §5): server-clock duration of the time
 * the agent runs (time parked in INPUT_REQUIRED / AUTH_REQUIRED is not counted), the energy
 * and units of output the agent reports, and its steps. Carried across executions in the accounting
 * record (src/accounting/record.ts), so a restart loses nothing that was recorded.
 */
import { ENERGY_DECIMALS, type Energy } from './quantities.js';
import { fromUnits, toUnits } from './decimal.js';
import type { StatementStep } from './schemas.js';

/** What the agent reports with `task.usage(…)`. */
export interface UsageReport {
  /** Joules used since the last report (measured by the agent). */
  joules?: string;
  /** Units of output produced since the last report (per-unit prices). */
  units?: string;
  /** Name a step: the report becomes one line of the statement's `steps`. */
  step?: string;
  /** The step's own duration, if the agent timed it. */
  durationMs?: number;
}

/** The meter as kept in metadata between executions. */
export interface MeterState {
  ms: number;
  /** Measured joules reported so far (decimal string). */
  joules: string;
  reported: boolean;
  units: string;
  steps: StatementStep[];
}

/** A meter starting from `state` (or zero). */
export class Meter {
  private ms: number;
  private joules: bigint;
  private reported: boolean;
  private units: bigint;
  private readonly steps: StatementStep[];
  private startedAt: number | undefined;

  constructor(
    state: MeterState | undefined,
    private readonly clock: () => number,
  ) {
    this.ms = state?.ms ?? 0;
    this.joules = toUnits(state?.joules ?? '0', ENERGY_DECIMALS);
    this.reported = state?.reported ?? false;
    this.units = toUnits(state?.units ?? '0', ENERGY_DECIMALS);
    this.steps = [...(state?.steps ?? [])];
  }

  /** The agent starts running (an execution begins). */
  start(): void {
    this.startedAt = this.clock();
  }

  /** The agent stops running (it paused or finished): the elapsed time is counted once. */
  stop(): void {
    if (this.startedAt !== undefined)
      this.ms += Math.max(0, Math.floor(this.clock() - this.startedAt));
    this.startedAt = undefined;
  }

  report(usage: UsageReport): void {
    if (usage.joules !== undefined) {
      this.joules += toUnits(usage.joules, ENERGY_DECIMALS);
      this.reported = true;
    }
    if (usage.units !== undefined) this.units += toUnits(usage.units, ENERGY_DECIMALS);
    if (usage.step !== undefined) {
      const step: StatementStep = { name: usage.step };
      if (usage.durationMs !== undefined)
        step.duration = { ms: Math.max(0, Math.floor(usage.durationMs)) };
      if (usage.joules !== undefined) step.energy = { joules: usage.joules, method: 'measured' };
      if (usage.units !== undefined) step.units = usage.units;
      this.steps.push(step);
    }
  }

  /** The reported energy, or undefined when the agent reported none. */
  measuredEnergy(): Energy | undefined {
    return this.reported
      ? { joules: fromUnits(this.joules, ENERGY_DECIMALS), method: 'measured' }
      : undefined;
  }

  state(): MeterState {
    return {
      ms: this.ms,
      joules: fromUnits(this.joules, ENERGY_DECIMALS),
      reported: this.reported,
      units: fromUnits(this.units, ENERGY_DECIMALS),
      steps: [...this.steps],
    };
  }
}
