/**
 * The SSRF guard: a callback URL is the account holder's to choose, so without it any account
 * could make the service POST to its own loopback, the cloud's metadata address or the private
 * network behind it. Every address a receiver's name resolves to is checked at send time, and the
 * connection goes to an address that passed (the check is the connection's own DNS lookup), so a
 * name that resolves to a public address for the check and a private one for the connection (DNS
 * rebinding) cannot get through. `allowPrivate` (serve's --allow-private-callbacks) lets tests
 * and on-premises receivers through.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';

/** What a refused address is told with: undici passes the connection's error on, code and all. */
export class CallbackAddressRefused extends Error {
  override readonly name = 'CallbackAddressRefused';
  readonly code = 'SMSKIT_CALLBACK_ADDRESS_REFUSED';
}

/** [first address, prefix length, why] for IPv4; every range a public receiver cannot be in. */
const IPV4_REFUSED: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'shared address space (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function ipv4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function ipv4Refusal(address: string): string | undefined {
  const value = ipv4Number(address);
  for (const [first, bits, why] of IPV4_REFUSED) {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(first);
    if (value >= start && value < start + size) return why;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail becomes two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0] ?? address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = ipv4Number(dotted[1] as string);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
}

function embeddedIpv4(groups: readonly number[]): string {
  const [a = 0, b = 0] = groups.slice(6);
  return [a >> 8, a & 0xff, b >> 8, b & 0xff].join('.');
}

function ipv6Refusal(address: string): string | undefined {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0] = g;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0xffff) {
    const why = ipv4Refusal(embeddedIpv4(g));
    return why === undefined ? undefined : `IPv4-mapped ${why}`;
  }
  if (zeroHead && g5 === 0) {
    const last = ((g[6] ?? 0) << 16) + (g[7] ?? 0);
    if (last === 0) return 'unspecified';
    return last === 1 ? 'loopback' : 'IPv4-compatible (deprecated)';
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const why = ipv4Refusal(embeddedIpv4(g));
    return why === undefined ? undefined : `NAT64 of ${why}`;
  }
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique local (private)';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/** Why `address` (an IP literal) is no place for a callback, or undefined when it may be one. */
export function addressRefusal(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return ipv4Refusal(address);
  if (family === 6) return ipv6Refusal(address);
  return 'not an IP address';
}

/** A URL's host without IPv6 brackets: what `isIP` and DNS take. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type GuardedLookup = (
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
) => void;

/**
 * A dns.lookup for the connection: resolves, drops every refused address, and refuses the name
 * when none is left (naming the first refused address and why).
 */
export function guardedLookup(resolve: typeof dnsLookup = dnsLookup): GuardedLookup {
  return (hostname, options, callback) => {
    const query: LookupAllOptions = { ...(options.family ? { family: options.family } : {}), all: true };
    resolve(hostname, query, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const allowed = addresses.filter((entry) => addressRefusal(entry.address) === undefined);
      const first = allowed[0];
      if (first === undefined) {
        const refused = addresses[0];
        const why = refused === undefined ? 'no address' : `${refused.address} is ${addressRefusal(refused.address)}`;
        return callback(
          new CallbackAddressRefused(`callback host ${hostname} refused: ${why} (see --allow-private-callbacks)`),
          [],
        );
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
