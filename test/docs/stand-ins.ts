/**
 * Local stand-ins for the internet services the docs name, so a doc example that reaches one runs
 * in CI without the internet (marker `stand-in=<name>`): each serves the same contract on
 * 127.0.0.1 port 0, and the suite replaces the public origin in the example with the local one.
 */
import { readFileSync } from 'node:fs';
import { parseWsdl, toDescriptor } from '../../generator/index.js';
import { createRequestListener, listen } from '../../runtime/index.js';

export interface StandIn {
  /** The origin the docs write, replaced by `origin` in the example. */
  readonly publicOrigin: string;
  readonly origin: string;
  close(): Promise<void>;
}

type Pair = { intA: number; intB: number };

/** http://www.dneonline.com/calculator.asmx: Add and Subtract, SOAP 1.1 and 1.2. */
async function calculator(): Promise<StandIn> {
  const file = new URL('calculator.wsdl', import.meta.url);
  const descriptor = toDescriptor(parseWsdl(file.pathname));
  const listener = createRequestListener(
    descriptor,
    {
      Add: ({ intA, intB }: Pair) => ({ AddResult: intA + intB }),
      Subtract: ({ intA, intB }: Pair) => ({ SubtractResult: intA - intB }),
    },
    { wsdl: readFileSync(file, 'utf8') },
  );
  const server = await listen(listener, { host: '127.0.0.1', port: 0 });
  return { publicOrigin: 'http://www.dneonline.com', origin: server.url, close: () => server.close() };
}

export const STAND_INS: Readonly<Record<string, () => Promise<StandIn>>> = { calculator };
