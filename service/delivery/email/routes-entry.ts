/** The `type: email` entry of a routes file → `EmailRouteOptions` (see docs/operations.md for each key). */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EMAIL_DEFAULTS, type EmailRouteOptions } from './options.js';
import type { Settings } from '../settings.js';

const KEYS = [
  'type',
  'host',
  'port',
  'security',
  'username',
  'passwordEnv',
  'tlsCaFile',
  'from',
  'subject',
  'connections',
  'messagesPerConnection',
  'timeout',
  'reconnect',
] as const;

const HOUR = 3_600_000;
const ADDRESS = /^[^\s@<>"]{1,64}@[A-Za-z0-9.-]{1,253}$/;
const HOST = /^[A-Za-z0-9.:[\]-]{1,253}$/;

export function readEmailSettings(route: Settings, env: NodeJS.ProcessEnv, file: string): EmailRouteOptions {
  route.only(KEYS);
  const reconnect = route.section('reconnect');
  reconnect.only(['initial', 'max']);
  const host = route.string('host');
  if (!HOST.test(host)) route.fail('host', 'must be a host name or address');
  const security = route.oneOf('security', ['starttls', 'tls', 'none'], EMAIL_DEFAULTS.security);
  const from = route.string('from');
  if (!ADDRESS.test(from)) route.fail('from', 'must be a mail address such as sms@example.com');
  const subject = route.has('subject') ? route.string('subject') : undefined;
  if (subject !== undefined && !/^[^\r\n]{1,200}$/.test(subject))
    route.fail('subject', 'must be one line of at most 200 characters');
  const initialMs = reconnect.duration('initial', 10, HOUR, EMAIL_DEFAULTS.reconnect.initialMs);
  return {
    host,
    port: route.integer('port', 1, 65535, security === 'tls' ? 465 : security === 'starttls' ? 587 : 25),
    security,
    ...credentials(route, env, security),
    ...(route.has('tlsCaFile') ? { tlsCa: readCa(route, route.string('tlsCaFile'), file) } : {}),
    from,
    ...(subject === undefined ? {} : { subject }),
    connections: route.integer('connections', 1, 100, EMAIL_DEFAULTS.connections),
    messagesPerConnection: route.integer('messagesPerConnection', 1, 100_000, EMAIL_DEFAULTS.messagesPerConnection),
    timeoutMs: route.duration('timeout', 100, 10 * 60_000, EMAIL_DEFAULTS.timeoutMs),
    reconnect: {
      initialMs,
      maxMs: reconnect.duration('max', initialMs, 24 * HOUR, Math.max(initialMs, EMAIL_DEFAULTS.reconnect.maxMs)),
    },
  };
}

/** AUTH needs both the user and the variable holding its password; never over a plain connection. */
function credentials(
  route: Settings,
  env: NodeJS.ProcessEnv,
  security: EmailRouteOptions['security'],
): Pick<EmailRouteOptions, 'username' | 'password'> {
  if (!route.has('username') && !route.has('passwordEnv')) return {};
  if (!route.has('username')) route.fail('passwordEnv', 'goes with username (AUTH needs both)');
  if (!route.has('passwordEnv')) route.fail('username', 'goes with passwordEnv (AUTH needs both)');
  if (security === 'none') route.fail('security', 'must be starttls or tls with username (AUTH sends the password)');
  return { username: route.string('username'), password: route.secretFromEnv('passwordEnv', env) };
}

/** A CA file path is relative to the routes file. */
function readCa(route: Settings, path: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(resolve(dirname(file), path), 'utf8');
  } catch (error) {
    route.fail('tlsCaFile', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) route.fail('tlsCaFile', 'holds no PEM certificate');
  return text;
}
