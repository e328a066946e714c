/**
 * Everything a listener computes once from the descriptor, the handlers and the options: the
 * routing table, the handlers by method, the body limits, the SOAP request reader, the WSDL and
 * help pages, the UsernameToken check. Each request then only looks things up.
 */
import type { ServiceDescriptor } from '../descriptor.js';
import { SoapRequestDecoder } from '../soap/request-decoder.js';
import { UsernameTokenVerifier } from '../wsse/verify.js';
import { BodyReader, DEFAULT_MAX_BODY_BYTES } from './body.js';
import type { OperationHandler } from './context.js';
import { compileHelp, helpPagesMode, type HelpSite } from './help/index.js';
import {
  checkOptionNames,
  missingParametersOption,
  positiveOption,
  type Logger,
  type ServerOptions,
} from './options.js';
import { compileRoutes, operationMethods, type RouteTable } from './routes.js';
import { WsdlCache } from './wsdl.js';

export interface ServerSetup {
  readonly d: ServiceDescriptor;
  readonly routes: RouteTable;
  readonly handlers: ReadonlyMap<string, OperationHandler>;
  readonly wsdl: WsdlCache | undefined;
  readonly bodies: BodyReader;
  readonly logger: Logger;
  /** `logger.error` as a function made once (not a closure per request). */
  readonly logError: (message: string) => void;
  readonly trustForwarded: boolean;
  /** Reads and decodes SOAP requests (shape cache and shape decoders: soap/request-decoder.ts). */
  readonly soapRequests: SoapRequestDecoder;
  readonly passAbsentOptional: boolean;
  /** Help pages and DISCO; undefined when neither is served. */
  readonly help: HelpSite | undefined;
  /** The UsernameToken check; undefined when the server checks none. */
  readonly wsSecurity: UsernameTokenVerifier | undefined;
}

const stderrLogger: Logger = { error: (message) => process.stderr.write(`smskit: ${message}\n`) };

export function compileServerSetup(
  d: ServiceDescriptor,
  handlers: Record<string, OperationHandler>,
  options: ServerOptions,
): ServerSetup {
  checkOptionNames(options);
  const logger = options.logger ?? stderrLogger;
  const logError = (message: string): void => logger.error(message);
  const byMethod = handlersByMethod(d, handlers);
  return {
    d,
    routes: compileRoutes(d, options.basePath),
    handlers: byMethod,
    wsdl: options.wsdl === undefined ? undefined : new WsdlCache(options.wsdl),
    bodies: new BodyReader({
      maxBytes: positiveOption('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES),
      timeoutMs: positiveOption('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
    }),
    logger,
    logError,
    trustForwarded: options.trustForwardedHeaders === true,
    soapRequests: new SoapRequestDecoder(d, options.xmlLimits, options.wsSecurity !== undefined),
    passAbsentOptional: missingParametersOption(options.httpMissingParameters) === 'pass',
    help: compileHelp(d, helpPagesMode(options.helpPages), options.basePath, options.wsdl),
    wsSecurity: options.wsSecurity === undefined ? undefined : new UsernameTokenVerifier(options.wsSecurity, logError),
  };
}

/** Every operation method needs a handler, and every handler an operation. */
function handlersByMethod(
  d: ServiceDescriptor,
  handlers: Record<string, OperationHandler>,
): Map<string, OperationHandler> {
  const byMethod = new Map<string, OperationHandler>();
  for (const method of operationMethods(d)) {
    const handler = handlers[method];
    if (typeof handler !== 'function') throw new TypeError(`No handler for the operation method "${method}"`);
    byMethod.set(method, handler);
  }
  for (const method of Object.keys(handlers))
    if (!byMethod.has(method)) throw new TypeError(`Handler "${method}" matches no operation of ${d.name}`);
  return byMethod;
}
