/** The SMPP route: options, their reader (the routes file's `type: smpp`) and the route itself. */
export { createSmppRoute, type SmppRouteDeps } from './smpp-route.js';
export { SMPP_DEFAULTS, type SmppRouteOptions } from './options.js';
export { readSmppSettings } from './routes-entry.js';
export { STATUS_CLASSES, statusClass, statusName } from './status-codes.js';
