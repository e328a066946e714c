import { accountCommand } from './account.js';
import { callbacksCommand } from './callbacks.js';
import { callCommand } from './call.js';
import type { CliCommand } from './command.js';
import { conformanceCommand } from './conformance.js';
import { dbCommand } from './db.js';
import { fuzzCommand } from './fuzz.js';
import { diffCommand } from './diff.js';
import { generateCommand } from './generate.js';
import { inspectCommand } from './inspect.js';
import { outboxCommand } from './outbox.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';
import { smscCommand } from './smsc.js';
import { statusCommand } from './status.js';

/** Every command the CLI offers, in the order `smskit --help` lists them. */
export const commands: readonly CliCommand[] = [
  conformanceCommand,
  generateCommand,
  diffCommand,
  inspectCommand,
  callCommand,
  serveCommand,
  accountCommand,
  sendCommand,
  statusCommand,
  outboxCommand,
  callbacksCommand,
  smscCommand,
  dbCommand,
  recordCommand,
  replayCommand,
  fuzzCommand,
];
