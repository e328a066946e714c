import type { CliCommand } from './command.js';
import { generateCommand } from './generate.js';

/** Every command the CLI offers, in the order `smskit --help` lists them. */
export const commands: readonly CliCommand[] = [generateCommand];
