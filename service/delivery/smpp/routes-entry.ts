/** The `type: smpp` entry of a routes file → `SmppRouteOptions` (see docs/delivery.md for each key). */
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { SMPP_DEFAULTS, type SmppRouteOptions } from './options.js';
import type { Settings } from '../settings.js';
import { RECEIPT_ID_FORMATS } from './receipt-ids.js';

const KEYS = [
  'type',
  'host',
  'port',
  'tls',
  'tlsCaFile',
  'bind',
  'systemId',
  'passwordEnv',
  'systemType',
  'source',
  'destination',
  'gsmPacking',
  'concatenation',
  'receipts',
  'receiptTimeout',
  'receiptIds',
  'binds',
  'window',
  'throughput',
  'enquireLink',
  'responseTimeout',
  'reconnect',
  'connectTimeout',
] as const;

const HOUR = 3_600_000;

export function readSmppSettings(route: Settings, env: NodeJS.ProcessEnv, file: string): SmppRouteOptions {
  route.only(KEYS);
  const source = route.section('source');
  source.only(['address', 'ton', 'npi']);
  const destination = route.section('destination');
  destination.only(['ton', 'npi']);
  const reconnect = route.section('reconnect');
  reconnect.only(['initial', 'max']);
  const systemId = route.string('systemId');
  if (systemId.length > 15) route.fail('systemId', 'must be at most 15 characters (SMPP 3.4 system_id)');
  const systemType = route.string('systemType', SMPP_DEFAULTS.systemType);
  if (systemType.length > 12) route.fail('systemType', 'must be at most 12 characters (SMPP 3.4 system_type)');
  const password = route.secretFromEnv('passwordEnv', env);
  if (password.length > 8) route.fail('passwordEnv', 'names a password longer than 8 characters (SMPP 3.4 limit)');
  const address = source.string('address', SMPP_DEFAULTS.source.address);
  if (address.length > 20) source.fail('address', 'must be at most 20 characters (SMPP 3.4 source_addr)');
  const tlsCaFile = route.has('tlsCaFile') ? route.string('tlsCaFile') : undefined;
  return {
    host: route.string('host'),
    port: route.integer('port', 1, 65535, SMPP_DEFAULTS.port),
    tls: route.boolean('tls', SMPP_DEFAULTS.tls),
    ...(tlsCaFile === undefined ? {} : { tlsCa: readCa(route, tlsCaFile, file) }),
    bind: route.oneOf('bind', ['transceiver', 'transmitter+receiver'], SMPP_DEFAULTS.bind),
    systemId,
    password,
    systemType,
    source: {
      address,
      ton: source.integer('ton', 0, 6, SMPP_DEFAULTS.source.ton),
      npi: source.integer('npi', 0, 18, SMPP_DEFAULTS.source.npi),
    },
    destination: {
      ton: destination.integer('ton', 0, 6, SMPP_DEFAULTS.destination.ton),
      npi: destination.integer('npi', 0, 18, SMPP_DEFAULTS.destination.npi),
    },
    gsmPacking: route.oneOf('gsmPacking', ['unpacked', 'packed'], SMPP_DEFAULTS.gsmPacking),
    concatenation: route.oneOf('concatenation', ['udh', 'sar'], SMPP_DEFAULTS.concatenation),
    receipts: route.boolean('receipts', SMPP_DEFAULTS.receipts),
    receiptIds: route.oneOf('receiptIds', RECEIPT_ID_FORMATS, SMPP_DEFAULTS.receiptIds),
    receiptTimeoutMs: route.duration('receiptTimeout', 1_000, 30 * 24 * HOUR, SMPP_DEFAULTS.receiptTimeoutMs),
    binds: route.integer('binds', 1, 32, SMPP_DEFAULTS.binds),
    window: route.integer('window', 1, 1_000, SMPP_DEFAULTS.window),
    throughputPerSecond: route.number('throughput', 0, 100_000, SMPP_DEFAULTS.throughputPerSecond),
    enquireLinkMs: route.duration('enquireLink', 1_000, HOUR, SMPP_DEFAULTS.enquireLinkMs),
    responseTimeoutMs: route.duration('responseTimeout', 100, HOUR, SMPP_DEFAULTS.responseTimeoutMs),
    reconnect: {
      initialMs: reconnect.duration('initial', 10, HOUR, SMPP_DEFAULTS.reconnect.initialMs),
      maxMs: reconnect.duration('max', 10, 24 * HOUR, SMPP_DEFAULTS.reconnect.maxMs),
    },
    connectTimeoutMs: route.duration('connectTimeout', 100, HOUR, SMPP_DEFAULTS.connectTimeoutMs),
  };
}

/** A CA file path is relative to the routes file. */
function readCa(route: Settings, path: string, file: string): string {
  try {
    const text = readFileSync(resolve(dirname(file), path), 'utf8');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) route.fail('tlsCaFile', 'holds no PEM certificate');
    return text;
  } catch (error) {
    if (error instanceof Error && error.name === 'SettingsError') throw error;
    route.fail('tlsCaFile', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
