/**
 * What `smskit conformance` embeds about its own contract, handed to the WSDL-generic runner as
 * data: the default WSDL (the SMS service's, shipped in the package), the rule that its spec
 * requires every result element, and the SMS input shorthands (`--keyword --email --password
 * --to --carrier`), each an alias of `--param <flag>=…` matched to the contract's parameters by
 * name (`to` → `smsto`, `email` → `emailAddress`, `carrier` → `carrierCode`).
 */
import type { ConformanceCliDefaults, InputAlias } from '../conformance/cli/options.js';
import { BUILT_IN_WSDL, isBuiltInWsdl } from './built-in-contract.js';

/** The SMS shorthands; three read an environment variable when absent (keeps secrets out of argv). */
export const SMS_INPUT_ALIASES: readonly InputAlias[] = [
  { flag: 'keyword', env: 'SMSKIT_KEYWORD', describe: 'Alias of --param keyword=… (or $SMSKIT_KEYWORD)' },
  { flag: 'email', env: 'SMSKIT_EMAIL', describe: 'Alias of --param email=… (or $SMSKIT_EMAIL)' },
  {
    flag: 'password',
    env: 'SMSKIT_PASSWORD',
    describe: 'Alias of --param password=… (prefer $SMSKIT_PASSWORD); redacted in all output',
  },
  { flag: 'to', describe: 'Alias of --param to=… (the SMS recipient)' },
  { flag: 'carrier', describe: 'Alias of --param carrier=…' },
];

export const CONFORMANCE_DEFAULTS: ConformanceCliDefaults = {
  // As typed in the help; bin/commands/conformance.ts resolves it inside the package.
  wsdl: BUILT_IN_WSDL,
  requireResults: isBuiltInWsdl,
  inputAliases: SMS_INPUT_ALIASES,
  aliasesNeedTarget: 'the built-in service uses an account it creates',
};
