/**
 * `smskit call WSDL OPERATION`: calls any operation of any WSDL over any binding, with the
 * input given as JSON (simple values as JSON or as their XML text, `$type` for derived types),
 * and prints the result as JSON. Exit 0 with the result, 1 on a fault, 2 on a usage, input or
 * transport error — as `smskit send`.
 */
import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { Protocol, ServiceDescriptor } from '../../runtime/index.js';
import { CliError, UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import {
  asFlagError,
  networkStdinReaders,
  resolveNetworkFlags,
  validateNetworkFlags,
  withNetworkFlags,
  type NetworkFlags,
} from '../network-flags.js';
import { assertOneStdinReader } from '../secret-input.js';
import { readContractWith, validateImportHosts, withContractFlags } from '../contract-flags.js';
import { secretInputValues, traceWire } from '../wire-trace.js';
import type { CliCommand } from './command.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];

function builder(yargs: Argv): Argv {
  return withContractFlags(withNetworkFlags(yargs))
    .positional('wsdl', { type: 'string', describe: 'WSDL file or URL' })
    .positional('operation', { type: 'string', describe: 'Operation (or method) name, as `smskit inspect` lists it' })
    .option('binding', { choices: BINDINGS, default: 'soap11', describe: 'Protocol binding to call over' })
    .option('url', { type: 'string', describe: "Service address (default: the WSDL's address for the binding)" })
    .option('input', { type: 'string', default: '{}', describe: 'Input as JSON, @file.json, or @- for standard input' })
    .option('soap-headers', { type: 'string', describe: 'SOAP header blocks as JSON, by header name (see inspect)' })
    .option('show-headers', {
      type: 'boolean',
      default: false,
      describe: "Print { output, soapHeaders } with the response's SOAP headers",
    })
    .option('show-wire', {
      alias: 'v',
      type: 'boolean',
      default: false,
      describe: 'Print the request and the response as sent and received (on stderr; secrets as ***)',
    })
    .option('timeout', {
      type: 'number',
      default: 30_000,
      describe: 'Time limit for the whole call in milliseconds (also for fetching a WSDL URL)',
    })
    .option('max-response-bytes', {
      type: 'number',
      default: 16 * 1024 * 1024,
      describe: 'Largest response accepted (also for a WSDL URL)',
    });
}

interface CallOptions {
  readonly wsdl: string;
  readonly operation: string;
  readonly binding: Protocol;
  readonly url: string | undefined;
  readonly input: string;
  readonly soapHeaders: string | undefined;
  readonly showHeaders: boolean;
  readonly showWire: boolean;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly network: NetworkFlags;
  readonly allowImportHosts: readonly string[];
}

function validate(args: Record<string, unknown>): CallOptions {
  const text = (name: string): string => {
    const value = args[name];
    if (typeof value !== 'string' || value.trim() === '')
      throw new UsageError(`${name} is required: smskit call <wsdl> <operation>`);
    return value;
  };
  const timeout = Number(args.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError('--timeout must be a positive number of milliseconds');
  const maxBytes = Number(args['max-response-bytes']);
  if (!Number.isInteger(maxBytes) || maxBytes < 1024)
    throw new UsageError('--max-response-bytes must be a whole number of bytes, at least 1024');
  return Object.freeze({
    wsdl: text('wsdl'),
    operation: text('operation'),
    binding: args.binding as Protocol,
    url: typeof args.url === 'string' ? args.url : undefined,
    input: String(args.input),
    soapHeaders: typeof args['soap-headers'] === 'string' ? args['soap-headers'] : undefined,
    showHeaders: args['show-headers'] === true,
    showWire: args['show-wire'] === true,
    timeoutMs: timeout,
    maxResponseBytes: maxBytes,
    network: validateNetworkFlags(args),
    allowImportHosts: validateImportHosts(args),
  });
}

/** `--input @-` / `-` and `--soap-headers @-` read standard input too. */
function stdinReaders(options: CallOptions): string[] {
  const fromStdin = (value: string | undefined): boolean => value === '-' || value === '@-';
  return [
    ...(fromStdin(options.input) ? ['--input @-'] : []),
    ...(fromStdin(options.soapHeaders) ? ['--soap-headers @-'] : []),
    ...networkStdinReaders(options.network),
  ];
}

/** JSON from the flag's text, a file (`@path`) or standard input (`@-`, or `--input=-`). */
function readJson(source: string, what: string): unknown {
  let text = source;
  try {
    if (source === '-' || source === '@-') text = readFileSync(0, 'utf8');
    else if (source.startsWith('@')) text = readFileSync(source.slice(1), 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${what} from ${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function findMethod(d: ServiceDescriptor, name: string): string {
  const operations = d.bindings.flatMap((b) => b.operations);
  const found = operations.find((o) => o.method === name) ?? operations.find((o) => o.name === name);
  if (found === undefined)
    throw new CliError(
      `${d.name} has no operation ${name} (operations: ${[...new Set(operations.map((o) => o.method))].join(', ')})`,
    );
  return found.method;
}

type Runtime = typeof import('../../runtime/index.js');

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validate(args);
  assertOneStdinReader(stdinReaders(options));
  const runtime = await import('../../runtime/index.js');
  const { toDescriptor } = await import('../../contract/descriptor/index.js');
  const network = await resolveNetworkFlags(options.network);
  // A WSDL fetched from the service itself goes the same way as the call (CA, client certificate,
  // proxy, HTTP auth); from another origin than --url, without the credentials (the contract layer).
  const { model } = await readContractWith(options.wsdl, network, options.allowImportHosts, {
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxResponseBytes,
    ...(options.url === undefined ? {} : { serviceUrl: options.url }),
  });
  const descriptor = toDescriptor(model);
  const { method, url } = callTarget(descriptor, options);
  const inputJson = readJson(options.input, '--input');
  const input = runtime.operationInputFromJson(descriptor, method, inputJson);
  const headersJson = options.soapHeaders === undefined ? undefined : readJson(options.soapHeaders, '--soap-headers');
  const soapHeaders =
    headersJson === undefined ? undefined : runtime.soapHeadersFromJson(descriptor, method, headersJson);
  const stopTrace = options.showWire
    ? traceWire((text) => void process.stderr.write(text), wireSecrets(network, [inputJson, headersJson]))
    : undefined;
  let client: InstanceType<Runtime['ServiceClient']>;
  try {
    client = new runtime.ServiceClient(descriptor, {
      url,
      binding: options.binding,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      ...network,
    });
  } catch (error) {
    throw asFlagError(error);
  }
  try {
    return await callAndPrint(runtime, client, { method, input, soapHeaders, showHeaders: options.showHeaders });
  } finally {
    stopTrace?.();
    await client.close();
  }
}

/** The method to call and where: the binding named by --binding, at --url or the WSDL's address. */
function callTarget(descriptor: ServiceDescriptor, options: CallOptions): { method: string; url: string } {
  const method = findMethod(descriptor, options.operation);
  const binding = descriptor.bindings.find((b) => b.protocol === options.binding);
  if (binding === undefined)
    throw new CliError(
      `${descriptor.name} has no ${options.binding} binding (bindings: ${descriptor.bindings.map((b) => b.protocol).join(', ')})`,
    );
  const url = options.url ?? binding.address;
  if (url === undefined) throw new CliError(`the WSDL gives no address for ${binding.name}: pass --url`);
  return { method, url };
}

interface Call {
  readonly method: string;
  readonly input: unknown;
  readonly soapHeaders: Record<string, unknown> | undefined;
  readonly showHeaders: boolean;
}

/** Calls once and prints the result as JSON: exit 0; a fault on standard error: 1; a transport error: 2. */
async function callAndPrint(
  runtime: Runtime,
  client: InstanceType<Runtime['ServiceClient']>,
  call: Call,
): Promise<number> {
  try {
    const { method, input, soapHeaders } = call;
    const result = await client.callWithHeaders(method, input, soapHeaders === undefined ? {} : { soapHeaders });
    const shown = call.showHeaders ? { output: result.output, soapHeaders: result.soapHeaders } : result.output;
    process.stdout.write(`${JSON.stringify(runtime.valueToJson(shown) ?? null, null, 2)}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof runtime.SoapFaultError) {
      process.stderr.write(faultLines(error, runtime.valueToJson));
      return EXIT_FAILED;
    }
    if (error instanceof runtime.TransportError) {
      process.stderr.write(`smskit: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/**
 * A fault as the user needs it: the code with its sub-code (SOAP 1.2 Subcode, or the dotted
 * suffix of a SOAP 1.1 faultcode such as `Client.Refused`), the text, and the detail: a declared
 * fault's value as JSON (`toJson`: the runtime's valueToJson), else the detail's leaf entries.
 */
export function faultLines(
  fault: {
    code: string;
    subcode: string | undefined;
    message: string;
    detail: Readonly<Record<string, string>>;
    fault?: { readonly name: string; readonly value: unknown } | undefined;
  },
  toJson: (value: unknown) => unknown = (value) => value,
): string {
  const code = fault.subcode === undefined ? fault.code : `${fault.code} (sub-code ${fault.subcode})`;
  const detail =
    fault.fault !== undefined
      ? `smskit: declared fault ${fault.fault.name}: ${JSON.stringify(toJson(fault.fault.value))}\n`
      : Object.keys(fault.detail).length === 0
        ? ''
        : `smskit: fault detail: ${JSON.stringify(fault.detail)}\n`;
  return `smskit: fault ${code}: ${fault.message}\n${detail}`;
}

/** What --show-wire hides: the HTTP and WS-Security credentials, and password-like input values. */
function wireSecrets(network: Awaited<ReturnType<typeof resolveNetworkFlags>>, inputs: readonly unknown[]): string[] {
  const secrets: string[] = [];
  if (network.auth?.type === 'basic') secrets.push(network.auth.password);
  if (network.auth?.type === 'bearer') secrets.push(network.auth.token);
  if (network.wsse !== undefined) secrets.push(network.wsse.password);
  const proxy = typeof network.proxy === 'string' ? network.proxy : undefined;
  if (proxy !== undefined && URL.canParse(proxy)) {
    const password = new URL(proxy).password;
    if (password !== '') secrets.push(decodeURIComponent(password));
  }
  return [...secrets, ...inputs.flatMap((value) => secretInputValues(value))];
}

export const callCommand: CliCommand = {
  command: 'call <wsdl> <operation>',
  describe: 'Call any operation of a WSDL over any binding, input and result as JSON',
  builder,
  examples: [
    [
      'smskit call calc.wsdl Add --input \'{"intA": 6, "intB": 3}\'',
      'calls Add over SOAP 1.1 at the address in the WSDL',
    ],
    [
      'smskit call calc.wsdl Add --binding http-get --input \'{"intA": 6, "intB": 3}\' --show-wire',
      'also prints the request and the response as sent and received (secrets as ***)',
    ],
    ['smskit call http://host/rich.asmx?wsdl EchoShapes --binding soap12 --input @shapes.json', 'input from a file'],
    [
      'SMSKIT_HTTP_PASSWORD=... smskit call calc.wsdl Add --url https://host/calc.asmx --ca corp-ca.pem --user me --input \'{"intA": 1, "intB": 2}\'',
      'over HTTPS with a company CA and HTTP Basic',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.call,
  run,
};
