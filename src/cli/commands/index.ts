/** Every verb of `a2a`, in the order `a2a --help` lists them. */
import type { Command } from '../command.js';
import { accountingListCommand } from './accounting-list.js';
import { cancelCommand } from './cancel.js';
import { cfpCommand } from './cfp.js';
import { cardKeygenCommand } from './card-keygen.js';
import { cardSignCommand } from './card-sign.js';
import { cardValidateCommand } from './card-validate.js';
import { cardVerifyCommand } from './card-verify.js';
import { demoCommand } from './demo.js';
import { didInitCommand, didShowCommand } from './did-init.js';
import { discoverCommand } from './discover.js';
import { getCommand } from './get.js';
import { inspectCommand } from './inspect.js';
import { listCommand } from './list.js';
import { mcpServeCommand } from './mcp-serve.js';
import { pushReceiveCommand } from './push-receive.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';
import { subscribeCommand } from './subscribe.js';

/** The verbs, help order. */
export const COMMANDS: readonly Command[] = [
  discoverCommand,
  sendCommand,
  getCommand,
  listCommand,
  cancelCommand,
  subscribeCommand,
  serveCommand,
  inspectCommand,
  demoCommand,
  cardValidateCommand,
  cardSignCommand,
  cardVerifyCommand,
  cardKeygenCommand,
  didInitCommand,
  didShowCommand,
  pushReceiveCommand,
  mcpServeCommand,
  accountingListCommand,
  cfpCommand,
];
