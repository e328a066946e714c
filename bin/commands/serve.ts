/**
 * `smskit serve`: the SMS service on all four bindings, over HTTP or HTTPS (optionally verifying
 * client certificates), until SIGINT, SIGTERM or SIGHUP (graceful, exit 0; bin/stop-signals.ts).
 */
import type { Argv } from 'yargs';
import { CliError, UsageError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { asFlagError } from '../network-flags.js';
import { waitForStopRequest } from '../stop-signals.js';
import { resolveServeTls, type ServeTlsFlags, validateServeTlsFlags, withServeTlsFlags } from '../serve-tls-flags.js';
import { checkDbArgument, isPostgresDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';
import type { DeliveryConfig } from '../../service/delivery/routes-file.js';
import { HELP_PAGES_MODES, type HelpPagesMode } from '../../runtime/server/help/mode.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly db: string;
  /** PostgreSQL: connections this instance keeps at most. */
  readonly dbPoolSize: number | undefined;
  readonly carriers: string | undefined;
  readonly defaultCountryCode: string | undefined;
  readonly maxSegments: number | undefined;
  readonly maxBodyBytes: number | undefined;
  readonly helpPages: HelpPagesMode;
  readonly tls: ServeTlsFlags | undefined;
  readonly routes: string | undefined;
  /** The operations listener (GET /metrics, /healthz), when --metrics-port is given. */
  readonly metrics: { readonly host: string; readonly port: number } | undefined;
  /** --keep-text / --keep-messages, in ms. */
  readonly retention: { readonly textMs?: number; readonly messagesMs?: number } | undefined;
  /** The callback sender's flags (docs/status.md). */
  readonly callbacks: {
    readonly allowPrivate: boolean;
    readonly concurrency: number | undefined;
    readonly perHost: number | undefined;
    readonly busyDeferMs: number | undefined;
  };
}

const secondsAsMs = (seconds: number | undefined): number | undefined =>
  seconds === undefined ? undefined : seconds * 1_000;

function integerIn(args: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function helpPagesOf(value: unknown): HelpPagesMode {
  if (value === undefined) return 'local-test-form';
  if (HELP_PAGES_MODES.includes(value as HelpPagesMode)) return value as HelpPagesMode;
  throw new CliError(`--help-pages must be one of ${HELP_PAGES_MODES.join(', ')}`);
}

const AGE = /^(\d{1,6})(m|h|d)$/;
const AGE_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

function ageOf(args: Record<string, unknown>, name: string): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  const match = AGE.exec(String(value).trim());
  if (match === null || Number(match[1]) === 0)
    throw new UsageError(`--${name} must be an age such as 90m, 12h or 30d; got "${String(value)}"`);
  return Number(match[1]) * (AGE_MS[match[2] ?? 'd'] ?? 86_400_000);
}

function retentionOf(args: Record<string, unknown>): ServeOptions['retention'] {
  const textMs = ageOf(args, 'keep-text');
  const messagesMs = ageOf(args, 'keep-messages');
  if (textMs === undefined && messagesMs === undefined) return undefined;
  if (textMs !== undefined && messagesMs !== undefined && textMs > messagesMs)
    throw new UsageError('--keep-text must not be longer than --keep-messages (a deleted message has no text)');
  return { ...(textMs === undefined ? {} : { textMs }), ...(messagesMs === undefined ? {} : { messagesMs }) };
}

function metricsOf(args: Record<string, unknown>): ServeOptions['metrics'] {
  const port = integerIn(args, 'metrics-port', 0, 65535);
  const host = typeof args['metrics-host'] === 'string' ? args['metrics-host'] : undefined;
  if (port === undefined) {
    if (host !== undefined) throw new UsageError('--metrics-host goes with --metrics-port');
    return undefined;
  }
  return { host: host ?? '127.0.0.1', port };
}

export function validateServeOptions(args: Record<string, unknown>): ServeOptions {
  const optionalText = (name: string): string | undefined =>
    typeof args[name] === 'string' ? (args[name] as string) : undefined;
  return Object.freeze({
    host: String(args.host),
    port: integerIn(args, 'port', 0, 65535) ?? 8080,
    db: checkDbArgument(String(args.db)),
    dbPoolSize: integerIn(args, 'db-pool-size', 1, 1000),
    carriers: optionalText('carriers'),
    defaultCountryCode: optionalText('default-country-code'),
    maxSegments: integerIn(args, 'max-segments', 1, 255),
    maxBodyBytes: integerIn(args, 'max-body-bytes', 1024, 1024 ** 3),
    helpPages: helpPagesOf(args['help-pages']),
    tls: validateServeTlsFlags(args),
    routes: optionalText('routes'),
    metrics: metricsOf(args),
    retention: retentionOf(args),
    callbacks: {
      allowPrivate: args['allow-private-callbacks'] === true,
      concurrency: integerIn(args, 'callback-concurrency', 1, 4096),
      perHost: integerIn(args, 'callback-per-host', 1, 1024),
      busyDeferMs: secondsAsMs(integerIn(args, 'callback-busy-defer', 0, 3_600)),
    },
  });
}

function builder(yargs: Argv): Argv {
  return withServeTlsFlags(withDbOption(yargs))
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('db-pool-size', {
      type: 'number',
      describe: 'PostgreSQL: most connections this instance opens (default 10)',
    })
    .option('port', { type: 'number', default: 8080, describe: 'TCP port (0 picks a free one)' })
    .option('carriers', { type: 'string', describe: 'JSON carrier table replacing the built-in one' })
    .option('default-country-code', {
      type: 'string',
      describe: 'Country calling code for national numbers (refused without it)',
    })
    .option('routes', {
      type: 'string',
      describe: 'Routes file (YAML/JSON): how accepted messages are delivered (SMPP, e-mail); see docs/delivery.md',
    })
    .option('metrics-port', {
      type: 'number',
      describe:
        'Serve GET /metrics (Prometheus) and GET /healthz on this port (0 picks a free one); see docs/operations.md',
    })
    .option('keep-text', {
      type: 'string',
      describe: 'Remove message text this long after acceptance, once sent or final (e.g. 7d); see docs/operations.md',
    })
    .option('keep-messages', {
      type: 'string',
      describe: 'Delete messages (with their history) this long after acceptance, once sent or final (e.g. 180d)',
    })
    .option('metrics-host', {
      type: 'string',
      describe: 'Address of the metrics listener (default 127.0.0.1: loopback only)',
    })
    .option('allow-private-callbacks', {
      type: 'boolean',
      describe:
        'Post callbacks to loopback, private and link-local addresses too (tests, on-premises receivers); see docs/status.md',
    })
    .option('callback-concurrency', { type: 'number', describe: 'Callback requests in flight at most (default 64)' })
    .option('callback-per-host', {
      type: 'number',
      describe: 'Callback requests in flight at most to one receiver host (default 8)',
    })
    .option('callback-busy-defer', {
      type: 'number',
      describe:
        'While serving and delivery keep the service and the machine busy, new callbacks wait up to this many whole seconds, 0 to 3600 (default 30; 0: never)',
    })
    .option('max-segments', { type: 'number', describe: 'Most SMS segments one message may take (default 10)' })
    .option('max-body-bytes', { type: 'number', describe: 'Largest accepted request body (default 4 MiB)' })
    .option('help-pages', {
      type: 'string',
      choices: HELP_PAGES_MODES,
      describe:
        'Help pages at GET /serviceapi.asmx: test form for local requests only (default), for every client, or no pages',
    });
}

interface RunningService {
  readonly url: string;
  readonly accounts: number;
  /** One line on delivery: the routes, or that messages stay queued. */
  readonly delivery: string;
  readonly metricsUrl: string | undefined;
  close(): Promise<void>;
}

/** The built-in SMS service with the command's options; closing finishes in-flight requests first. */
async function startService(options: ServeOptions, log: (line: string) => void): Promise<RunningService> {
  const tls = options.tls === undefined ? undefined : await resolveServeTls(options.tls);
  const { startSmsServer } = await import('../../service/server.js');
  const { builtInStatusWsdlText, builtInWsdlText } = await import('../built-in-contract.js');
  try {
    const server = await startSmsServer({
      dbPath: options.db,
      // The disk's fsync and the store's statements off the event loop that serves and sends;
      // callbacks on a thread of the lowest CPU priority, so they never take acceptance's or delivery's.
      writerThread: true,
      callbackThread: true,
      ...(options.dbPoolSize === undefined ? {} : { poolSize: options.dbPoolSize }),
      log,
      host: options.host,
      port: options.port,
      ...(options.carriers === undefined ? {} : { carriersFile: options.carriers }),
      ...(options.defaultCountryCode === undefined ? {} : { defaultCountryCode: options.defaultCountryCode }),
      ...(options.maxSegments === undefined ? {} : { maxSegments: options.maxSegments }),
      ...(options.routes === undefined ? {} : { routesFile: options.routes }),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.retention === undefined ? {} : { retention: options.retention }),
      callbacks: callbackSettingsOf(options.callbacks),
      ...(tls === undefined ? {} : { tls }),
      statusWsdl: builtInStatusWsdlText(),
      http: {
        wsdl: builtInWsdlText(),
        logger: { error: log },
        ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
        helpPages: options.helpPages,
      },
    });
    return {
      url: server.url,
      accounts: (await server.app.accounts.list()).length,
      delivery: deliveryLine(server.app.deliveryConfig),
      metricsUrl: server.metricsUrl,
      close: () => server.close(),
    };
  } catch (error) {
    if (error instanceof Error && error.name === 'SettingsError') throw new CliError(error.message);
    const explained = explainDatabaseError(error, options.db);
    if (explained !== error) throw explained;
    throw asFlagError(error, 'serve');
  }
}

function callbackSettingsOf(flags: ServeOptions['callbacks']) {
  return {
    allowPrivate: flags.allowPrivate,
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(flags.perHost === undefined ? {} : { perHost: flags.perHost }),
    ...(flags.busyDeferMs === undefined ? {} : { busyDeferMs: flags.busyDeferMs }),
  };
}

function callbacksLine(flags: ServeOptions['callbacks']): string {
  const where = flags.allowPrivate
    ? 'private and loopback addresses allowed (--allow-private-callbacks)'
    : 'public addresses only';
  return `signed POSTs to each account's callback URL, ${where}`;
}

function deliveryLine(config: DeliveryConfig | undefined): string {
  if (config === undefined) return 'none: no routes file (--routes), accepted messages stay queued';
  const routes = config.routes.map((route) => `${route.name} (${route.kind})`).join(', ');
  const unrouted =
    config.unrouted.length === 0 ? '' : `; no route for ${config.unrouted.join(', ')} (they stay queued)`;
  return `${routes} from ${config.file}${unrouted}`;
}

function retentionLine(args: Record<string, unknown>): string {
  const parts = [];
  if (args['keep-text'] !== undefined) parts.push(`message text for ${String(args['keep-text'])}`);
  if (args['keep-messages'] !== undefined) parts.push(`messages for ${String(args['keep-messages'])}`);
  return `${parts.join(', ')} after acceptance (once sent or final)`;
}

/** What a client needs beside the URL, for the "send a message" line. */
function clientFlagsHint(options: ServeOptions): string {
  if (options.tls === undefined) return '';
  const ca = ' --ca <CA of the server certificate>';
  return options.tls.requireClientCert ? `${ca} --cert <client.pem> --key <client.key>` : ca;
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateServeOptions(args);
  const log = (line: string): void => void process.stderr.write(`smskit serve: ${line}\n`);
  const server = await startService(options, log);
  const { accounts } = server;
  // Listening before the banner: a script that signals as soon as it reads the pid is heard.
  const stopRequest = waitForStopRequest();
  process.stdout.write(
    [
      `SMS service listening on ${server.url}/serviceapi.asmx`,
      `  contract:  ${server.url}/serviceapi.asmx?wsdl`,
      `  status:    ${server.url}/statusapi.asmx (GetMessageStatus; contract at ?wsdl)`,
      ...(options.helpPages === 'off'
        ? []
        : [`  help:      ${server.url}/serviceapi.asmx (operations, samples, test form)`]),
      ...(options.tls?.requireClientCert === true
        ? [`  clients:   a certificate issued by ${options.tls.caFile} is required`]
        : []),
      `  database:  ${options.db} (${isPostgresDb(options.db) ? 'PostgreSQL, ' : ''}${accounts} account${accounts === 1 ? '' : 's'})`,
      `  delivery:  ${server.delivery}`,
      `  callbacks: ${callbacksLine(options.callbacks)}`,
      ...(server.metricsUrl === undefined
        ? []
        : [`  metrics:   ${server.metricsUrl}/metrics and ${server.metricsUrl}/healthz`]),
      ...(options.retention === undefined ? [] : [`  retention: ${retentionLine(args)}`]),
      ...(accounts === 0
        ? [`  add an account:  smskit account add --db ${options.db} --email you@example.com --keyword ACME`]
        : []),
      `  send a message:  smskit send --url ${server.url}/serviceapi.asmx${clientFlagsHint(options)} --email you@example.com --keyword ACME --to +15551234567 --carrier auto --message "Hello"`,
      `  pid:       ${process.pid} (stop with Ctrl-C or kill ${process.pid}; in-flight requests finish first)`,
      '',
    ].join('\n'),
  );
  const reason = await stopRequest;
  log(`${reason}: finishing in-flight requests and deliveries`);
  await server.close();
  log('stopped');
  return EXIT_OK;
}

export const serveCommand: CliCommand = {
  command: 'serve',
  describe: 'Run the SMS service (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST at /serviceapi.asmx)',
  builder,
  examples: [
    ['smskit serve', 'on 127.0.0.1:8080, data in ./smskit.sqlite'],
    [
      'smskit serve --host 0.0.0.0 --port 0 --db /var/lib/sms.sqlite',
      'on every interface, a free port, another database',
    ],
    ['smskit serve --routes routes.yaml', 'and deliver over the routes in routes.yaml (docs/delivery.md)'],
    ['smskit serve --tls-cert server.pem --tls-key server.key', 'over HTTPS'],
    [
      'smskit serve --routes routes.yaml --allow-private-callbacks',
      'and post callbacks to receivers on the local network too',
    ],
    [
      'smskit serve --tls-cert server.pem --tls-key server.key --tls-ca clients-ca.pem --require-client-cert',
      'over HTTPS, only for clients with a certificate from clients-ca.pem (mutual TLS)',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.serve,
  run,
};
