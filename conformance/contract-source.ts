/**
 * Where the contract comes from: a WSDL file (local imports followed by the parser), or a URL
 * (typically `<target>?wsdl`), fetched once — under the runner's own exchange bounds, as the
 * target may be the hostile server under test, and with the run's network options (TLS, proxy;
 * Authorization and the client certificate only from the service's own origin), as a protected
 * service's ?wsdl needs them — and parsed from a temporary file. Either way
 * the result is the model, its descriptor and the WSDL text (served by the embedded service).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDescriptor } from '../generator/descriptor/index.js';
import { parseWsdl } from '../generator/parse/index.js';
import type { WsdlModel } from '../generator/model/index.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './bounds.js';
import { ConformanceError } from './errors.js';
import { type NetworkOptions, type RunnerNetwork, resolveNetwork } from './network.js';
import { Transport, TransportFailure } from './transport.js';

export interface Contract {
  readonly model: WsdlModel;
  readonly descriptor: ServiceDescriptor;
  readonly wsdlText: string;
}

async function fetchText(
  url: string,
  target: URL,
  timeoutMs: number,
  maxBytes: number,
  network: RunnerNetwork,
): Promise<string> {
  const transport = new Transport({
    origin: target.origin,
    concurrency: 1,
    timeoutMs,
    retries: 0,
    maxResponseBytes: maxBytes,
    headers: {},
    network,
  });
  try {
    const { response } = await transport.send({
      method: 'GET',
      path: `${target.pathname}${target.search}`,
      headers: {},
    });
    if (response.status !== 200)
      throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: HTTP ${response.status}`);
    return Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength).toString('utf8');
  } catch (error) {
    if (error instanceof TransportFailure)
      throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: ${error.message}`);
    throw error;
  } finally {
    await transport.destroy();
  }
}

function parseText(text: string, label: string): WsdlModel {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-contract-'));
  try {
    const file = join(dir, 'contract.wsdl');
    writeFileSync(file, text);
    return { ...parseWsdl(file), file: label };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The network options a WSDL URL is fetched with. Credentials (`auth`, the client certificate)
 * go only to the service they are for: to the WSDL's host when it is the service's origin, or
 * when no service URL is given (the WSDL then names the service itself). CAs and the proxy
 * always apply.
 */
export function wsdlNetwork(network: NetworkOptions, wsdl: URL, service: string | undefined): NetworkOptions {
  if (service === undefined || URL.parse(service)?.origin === wsdl.origin) return network;
  const { auth: _auth, tls, ...rest } = network;
  if (tls === undefined) return rest;
  const { cert: _cert, key: _key, passphrase: _passphrase, ...serverChecks } = tls;
  return { ...rest, tls: serverChecks };
}

/**
 * `network`: TLS, proxy and Authorization for a WSDL URL (a ServiceClient's `tls`, `proxy`,
 * `auth`); `service`: the URL of the service they are for, when it is not the WSDL's own host.
 */
export async function loadContract(
  wsdl: string,
  timeoutMs: number,
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
  network: NetworkOptions = {},
  service?: string,
): Promise<Contract> {
  const url = /^https?:\/\//i.test(wsdl) ? URL.parse(wsdl) : undefined;
  if (url === null) throw new ConformanceError('CONTRACT_UNREADABLE', `cannot read the WSDL ${wsdl}: not a URL`);
  // Before the try: a malformed network option is the runtime's TypeError naming it, not an unreadable WSDL.
  const fetched =
    url === undefined ? undefined : { url, network: resolveNetwork(url, wsdlNetwork(network, url, service)) };
  let wsdlText: string;
  try {
    wsdlText =
      fetched === undefined
        ? readFileSync(wsdl, 'utf8')
        : await fetchText(wsdl, fetched.url, timeoutMs, maxBytes, fetched.network);
  } catch (error) {
    if (error instanceof ConformanceError) throw error;
    throw new ConformanceError(
      'CONTRACT_UNREADABLE',
      `cannot read the WSDL ${wsdl}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Parser errors (GeneratorError, with file:line) pass through: they already say what is wrong.
  const model = fetched === undefined ? parseWsdl(wsdl) : parseText(wsdlText, wsdl);
  return { model, descriptor: toDescriptor(model), wsdlText };
}
