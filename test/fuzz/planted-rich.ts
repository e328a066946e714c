/**
 * The rich peer on smskit's generated skeleton with one planted defect each, the kinds that break
 * servers in production and that a fixed case catalogue misses:
 * - `empty-string`: MakeShape fails (a 500) on an empty `kind`, which the schema allows;
 * - `derived-order`: a Square is written with Rotated before its inherited members (wrong element
 *   order for that one derived type only), from a descriptor whose Square fields are reordered;
 * - `max-inclusive`: EchoNullableInt overflows at xs:int's maxInclusive, 2147483647;
 * - `surrogate-pair`: EchoStrings drops characters outside the Basic Multilingual Plane (each a
 *   surrogate pair in UTF-16): a well-formed, valid answer that differs from the reference's.
 */
import { readFileSync } from 'node:fs';
import { createRequestListener, listen, type OperationHandler, type ServiceDescriptor } from '../../runtime/index.js';
import { RichServiceDescriptor, type RichServiceHandlers } from '../golden/generated/asmx-rich/rich-service/index.js';
import { richHandlers } from '../peers/rich-handlers.js';

export type PlantedDefect = 'empty-string' | 'derived-order' | 'max-inclusive' | 'surrogate-pair';

const SQUARE = '{http://smskit.dev/rich/}Square';

/** The descriptor with Square's members in the wrong order (Rotated first): the server writes it so. */
function misorderedSquare(d: ServiceDescriptor): ServiceDescriptor {
  const square = d.types[SQUARE];
  if (square?.kind !== 'complex') throw new Error('the rich descriptor has no Square');
  const rotated = square.fields.filter((f) => f.prop === 'Rotated');
  const others = square.fields.filter((f) => f.prop !== 'Rotated');
  // A copy shares no object with the generated descriptor: the runtime caches layouts by object.
  const copy = structuredClone(d);
  return {
    ...copy,
    types: {
      ...copy.types,
      [SQUARE]: { ...structuredClone(square), fields: structuredClone([...rotated, ...others]) },
    },
  };
}

const PLANTED: Readonly<Record<PlantedDefect, Partial<RichServiceHandlers>>> = {
  'empty-string': {
    MakeShape: (input, context) => {
      if (input.kind === '') throw new Error('planted: an empty kind');
      return richHandlers.MakeShape(input, context);
    },
  },
  'derived-order': {},
  'max-inclusive': {
    EchoNullableInt: ({ value }) => {
      if (value === 2147483647) throw new Error('planted: value + 1 overflows');
      return { EchoNullableIntResult: value };
    },
  },
  'surrogate-pair': {
    EchoStrings: ({ items }) =>
      items === undefined
        ? {}
        : { EchoStringsResult: items.map((s) => (s === null ? s : s.replace(/[\u{10000}-\u{10FFFF}]/gu, ''))) },
  },
};

export interface PlantedServer {
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/** The rich server with the defect planted (or none: the correct server, for a reference). */
export async function startPlantedRich(defect: PlantedDefect | undefined): Promise<PlantedServer> {
  const handlers = { ...richHandlers, ...(defect === undefined ? {} : PLANTED[defect]) };
  const descriptor = defect === 'derived-order' ? misorderedSquare(RichServiceDescriptor) : RichServiceDescriptor;
  const wsdl = readFileSync(new URL('../fixtures/asmx/rich.wsdl', import.meta.url), 'utf8');
  const listener = createRequestListener(descriptor, handlers as unknown as Record<string, OperationHandler>, {
    wsdl,
    logger: { error: () => {} },
  });
  const listening = await listen(listener, { host: '127.0.0.1', port: 0 });
  let received = 0;
  listening.server.on('request', () => received++);
  return { url: `${listening.url}/rich.asmx`, requests: () => received, close: () => listening.close() };
}
