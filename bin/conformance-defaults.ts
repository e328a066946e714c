/**
 * What `smskit conformance` embeds about its own contract, handed to the WSDL-generic runner as
 * data: the default WSDL (the SMS service's, shipped in the package), the rule that its spec
 * requires every result element, and the SMS input shorthands (`--keyword --email --password
 * --to --carrier`), each the value of one of the contract's parameters, named exactly
 * (`--to` is `--param smsto=…`), so nothing here leans on the runner's matching of keys.
 */
import type { ConformanceCliDefaults, InputAlias } from './conformance/options.js';
import { BUILT_IN_WSDL, isBuiltInWsdl } from './built-in-contract.js';

/** The SMS shorthands; three read an environment variable when absent (keeps secrets out of argv). */
export const SMS_INPUT_ALIASES: readonly InputAlias[] = [
  { flag: 'keyword', env: 'SMSKIT_KEYWORD', describe: 'Alias of --param keyword=… (or $SMSKIT_KEYWORD)' },
  {
    flag: 'email',
    param: 'emailAddress',
    env: 'SMSKIT_EMAIL',
    describe: 'Alias of --param emailAddress=… (or $SMSKIT_EMAIL)',
  },
  {
    flag: 'password',
    env: 'SMSKIT_PASSWORD',
    describe: 'Alias of --param password=… (prefer $SMSKIT_PASSWORD); redacted in all output',
  },
  { flag: 'to', param: 'smsto', describe: 'Alias of --param smsto=… (the SMS recipient)' },
  { flag: 'carrier', param: 'carrierCode', describe: 'Alias of --param carrierCode=…' },
];

export const CONFORMANCE_DEFAULTS: ConformanceCliDefaults = {
  // As typed in the help; bin/commands/conformance.ts resolves it inside the package.
  wsdl: BUILT_IN_WSDL,
  requireResults: isBuiltInWsdl,
  inputAliases: SMS_INPUT_ALIASES,
  aliasesNeedTarget: 'the built-in service uses an account it creates',
};
