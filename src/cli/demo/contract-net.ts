/**
 * `a2a demo contract-net` (`npm run demo -- contract-net`): three priced translators on
 * loopback, a Contract Net call for proposals, the award, a re-award when the first winner
 * fails, the rejection of the third, and the statement (docs/extensions/delegation.md).
 */
import { contractNet } from '../../delegation/contract-net.js';
import { amount } from '../../accounting/quantities.js';
import { serve, type ServeResult } from '../../node/serve.js';
import { generateSigningKey } from '../../security/signing-keys.js';
import { cfpEventLine } from '../commands/cfp.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { statementLines } from '../format/accounting.js';
import type { Output } from '../io.js';

/** Runs the demo; exit 0 when the task was delegated and the statement printed. */
export async function contractNetDemo(out: Output, signal: AbortSignal): Promise<ExitCode> {
  const { pricedTranslator } = await import('../../demo/priced.js');
  const key = await generateSigningKey('ES256');
  const payers = { demo: key.publicKey };
  const servers: ServeResult[] = [];
  try {
    for (const options of [
      {
        name: 'Bargain Translations',
        fee: '0.02',
        perWord: '0.01',
        workMs: 300,
        failAfterAward: true,
      },
      { name: 'Steady Translations', fee: '0.04', perWord: '0.01', workMs: 200 },
      { name: 'Express Translations', fee: '0.09', perWord: '0.02', workMs: 50 },
    ]) {
      servers.push(await serve(pricedTranslator({ ...options, payers }), { logger: null }));
    }
    const { bold, dim } = out.style;
    out.line(bold('Contract Net over A2A: three priced translators, one call for proposals'));
    out.line(dim(servers.map((s) => s.url).join('  ')));
    const net = contractNet({
      cfp: 'good morning world',
      contractors: servers.map((s) => s.url),
      skill: { tags: ['translate'] },
      deadline: 5_000,
      choose: 'cheapest',
      budget: amount('0.50', 'USD'),
      signer: { payer: 'demo', key: key.key, alg: key.alg, kid: key.kid },
      awardTimeout: 10_000,
      signal,
    });
    for await (const event of net) {
      if (out.json) out.jsonLine(event);
      else out.line(cfpEventLine(event, out.style));
    }
    const result = await net.result;
    const artifact = result.task?.artifacts?.[0]?.parts[0]?.text;
    if (!out.json) {
      if (artifact) out.line(`result   "${artifact}"`);
      if (result.statement)
        for (const line of statementLines(result.statement, out.style)) out.line(line);
    }
    return result.winner && result.statement ? EXIT.OK : EXIT.AGENT_ERROR;
  } finally {
    for (const s of servers) await s.close();
  }
}
