export { createSmppRoute, type SmppRouteDeps } from './smpp-route.js';
export { SMPP_DEFAULTS, type SmppRouteOptions } from './options.js';
export { STATUS_CLASSES, statusClass, statusName } from './status-codes.js';
