/**
 * The demo's priced skill (docs/extensions/accounting.md): `translate`, a toy translator that
 * charges a flat fee plus a price per word, reports its energy, and can be told to fail after the
 * award (to show a Contract Net re-award). Three of them make the contract-net demo.
 */
import { amount, type PayerKeys } from '../accounting/index.js';
import { createAgent, type Agent } from '../server/index.js';
import { textOf } from '../server/index.js';
import { sleep } from './command.js';

/** One priced translator. */
export interface TranslatorOptions {
  name: string;
  /** Flat fee in USD. */
  fee: string;
  /** Price per word in USD. */
  perWord: string;
  /** What its quotes announce, and how long it works. */
  workMs: number;
  payers: PayerKeys;
  /** Fail after the award instead of translating. */
  failAfterAward?: boolean;
}

const WORDS: Record<string, string> = {
  good: 'buenos',
  morning: 'días',
  hello: 'hola',
  world: 'mundo',
};

/** A priced translator agent (the demo's priced skill). */
export function pricedTranslator(options: TranslatorOptions): Agent {
  const words = (text: string) => text.split(/\s+/).filter(Boolean);
  return createAgent({
    card: {
      name: options.name,
      description: `Translates English into Spanish, ${options.fee} USD + ${options.perWord} USD a word`,
      version: '1.0.0',
      skills: [
        {
          id: 'translate',
          name: 'Translate',
          description: 'English to Spanish',
          tags: ['translate'],
        },
      ],
    },
    accounting: {
      price: {
        flat: amount(options.fee, 'USD'),
        perUnit: amount(options.perWord, 'USD'),
        unit: 'word',
      },
      energy: { perTaskJoules: '0.5', perSecondJoules: '20' },
      estimate: (message) => ({
        durationMs: options.workMs,
        units: String(words(textOf(message)).length),
      }),
      payers: options.payers,
      required: false,
    },
    async *execute({ message, task, signal }) {
      yield task.working(`${options.name} is translating`);
      await sleep(options.workMs, signal);
      if (options.failAfterAward) {
        yield task.failed(`${options.name} lost its dictionary`);
        return;
      }
      const input = words(textOf(message));
      task.usage({
        step: 'translate',
        units: String(input.length),
        joules: '0.8',
        durationMs: options.workMs,
      });
      yield task.artifact(input.map((w) => WORDS[w.toLowerCase()] ?? w).join(' '), {
        name: 'translation',
      });
      yield task.completed();
    },
  });
}
