import { builtInWsdlPath, isBuiltInWsdl } from '../built-in-contract.js';
import { accountCommand } from './account.js';
import { callCommand } from './call.js';
import type { CliCommand } from './command.js';
import { conformanceCommand } from './conformance.js';
import { diffCommand } from './diff.js';
import { generateCommand } from './generate.js';
import { inspectCommand } from './inspect.js';
import { outboxCommand } from './outbox.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';

/**
 * Without --wsdl, the contract shipped inside the package, found from the package itself: the
 * command then works from any folder, not only from a clone's root (the conformance options
 * default to `wsdl/serviceapi.wsdl` relative to the working directory).
 */
function withPackagedContract(command: CliCommand): CliCommand {
  return {
    ...command,
    builder: (yargs) =>
      command.builder(yargs).option('wsdl', { default: undefined, defaultDescription: 'the built-in SMS contract' }),
    run: (args) => {
      const wsdl = typeof args.wsdl === 'string' && args.wsdl !== '' ? args.wsdl : builtInWsdlPath();
      // The built-in contract's spec makes every result required, although its schema says
      // minOccurs 0; decided here, where the package's own file is known, from any folder.
      const requireResults =
        typeof args['require-results'] === 'boolean' ? args['require-results'] : isBuiltInWsdl(wsdl);
      return command.run({ ...args, wsdl, 'require-results': requireResults });
    },
  };
}

/** Every command the CLI offers, in the order `smskit --help` lists them. */
export const commands: readonly CliCommand[] = [
  withPackagedContract(conformanceCommand),
  generateCommand,
  diffCommand,
  inspectCommand,
  callCommand,
  serveCommand,
  accountCommand,
  sendCommand,
  outboxCommand,
];
