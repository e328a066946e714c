import { accountCommand } from './account.js';
import type { CliCommand } from './command.js';
import { conformanceCommand } from './conformance.js';
import { generateCommand } from './generate.js';
import { outboxCommand } from './outbox.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';

/** Every command the CLI offers, in the order `smskit --help` lists them. */
export const commands: readonly CliCommand[] = [conformanceCommand, generateCommand, serveCommand, accountCommand, sendCommand, outboxCommand];
