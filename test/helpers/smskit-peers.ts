/**
 * The two ASMX peer services (test/peers/asmx) served by smskit instead: the generated skeletons
 * with the TypeScript handlers that mirror the C#, at the same paths as ASMX (/serviceapi.asmx,
 * /rich.asmx) and with the committed WSDL at ?wsdl, on 127.0.0.1 port 0.
 */
import { readFileSync } from 'node:fs';
import { listen } from '../../runtime/index.js';
import { createServiceAPIListener } from '../golden/generated/asmx-echo/service-api/index.js';
import { createRichServiceListener } from '../golden/generated/asmx-rich/rich-service/index.js';
import { echoHandlers } from '../peers/echo-handlers.js';
import { richHandlers } from '../peers/rich-handlers.js';
import type { AsmxSite } from './asmx-peer.js';

export interface SmskitPeer {
  /** The service endpoint, e.g. http://127.0.0.1:41234/rich.asmx. */
  readonly url: string;
  readonly origin: string;
  /** What the server logged (handler crashes and the like), one line each. */
  readonly logged: readonly string[];
  /** Every request the server began, as `METHOD /path`: says which side waited when a peer hangs. */
  readonly received: readonly string[];
  close(): Promise<void>;
}

/** The peer sites smskit serves too (the header site exists only as genuine ASMX). */
export type SmskitSite = Exclude<AsmxSite, 'header'>;
const PATH: Record<SmskitSite, string> = { echo: '/serviceapi.asmx', rich: '/rich.asmx' };

export function asmxWsdl(site: AsmxSite): string {
  return readFileSync(new URL(`../fixtures/asmx/${site}.wsdl`, import.meta.url), 'utf8');
}

export async function startSmskitPeer(site: SmskitSite): Promise<SmskitPeer> {
  const logged: string[] = [];
  const options = { wsdl: asmxWsdl(site), logger: { error: (line: string) => logged.push(line) } };
  const listener =
    site === 'echo'
      ? createServiceAPIListener(echoHandlers, options)
      : createRichServiceListener(richHandlers, options);
  const listening = await listen(listener, { host: '127.0.0.1', port: 0 });
  const received: string[] = [];
  listening.server.on('request', (req) => received.push(`${req.method} ${req.url}`));
  return {
    url: `${listening.url}${PATH[site]}`,
    origin: listening.url,
    logged,
    received,
    close: () => listening.close(),
  };
}
