/** `a2a discover`: fetch the Agent Card and show it readably, with validation warnings. */
import { candidateInterfaces } from '../../client/select.js';
import { cardUrl } from '../../client/card-resolver.js';
import { DEFAULT_BINDINGS, DEFAULT_PROTOCOL_VERSIONS } from '../../client/default-transports.js';
import type { AgentInterface } from '../../core/schemas/index.js';
import { cardEndpointWarnings, cardWarnings } from '../../client/card-warnings.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, fetchCard } from '../connect.js';
import { describeError } from '../describe-error.js';
import { EXIT } from '../exit-codes.js';
import { cardLines } from '../format/card.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';
import type { ReplyHeaders } from '../../transport/http-send.js';

/** The `discover` verb. */
export const discoverCommand: Command = {
  name: 'discover',
  summary: "show an agent's card: skills, interfaces, capabilities, security, and warnings",
  usage: ['discover <url>'],
  flags: {},
  flagHelp: [],
  examples: [
    `discover ${EXAMPLE_URL}`,
    `discover ${EXAMPLE_URL}/.well-known/agent-card.json`,
    `discover ${EXAMPLE_URL} -o json | jq '.skills[].id'`,
  ],
  notes: [
    'The URL is the agent base URL (the card is read from /.well-known/agent-card.json) or the',
    "card's own URL. -o json prints the card as ProtoJSON; warnings go to stderr.",
  ],
  async run({ positionals, global, out, signal, errors }) {
    const [rawUrl] = requireArgs(positionals, ['the agent URL']);
    noExtraArgs(positionals, 1);
    const url = agentUrl(rawUrl);
    let headers: ReplyHeaders | undefined;
    // Wraps fetch to see the card endpoint's caching headers (spec §8.6).
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      headers = response.headers;
      return response;
    };
    const card = await fetchCard(url, global, errors, { fetch: watching, signal });
    const warnings = [...cardWarnings(card), ...(headers ? cardEndpointWarnings(headers) : [])];
    let selected: AgentInterface | undefined;
    try {
      const bindings = global.binding ? [global.binding] : DEFAULT_BINDINGS;
      [selected] = candidateInterfaces(card, {
        bindings,
        versions: DEFAULT_PROTOCOL_VERSIONS,
        bindingsAt: { '0.3': bindings.filter((b) => b !== 'GRPC') },
      });
    } catch (error) {
      const report = describeError(error);
      warnings.unshift(`${report.message}${report.hint ? ` (${report.hint})` : ''}`);
    }
    if (out.json) {
      out.jsonDoc(card);
      for (const warning of warnings) out.error(`warning: ${warning}`);
      return EXIT.OK;
    }
    const view = { source: cardUrl(url), selected, warnings, width: out.columns };
    for (const line of cardLines(card, view, out.style)) out.line(line);
    return EXIT.OK;
  },
};
