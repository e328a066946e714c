/** The e-mail-to-SMS route: options, their reader (the routes file's `type: email`) and the route itself. */
export { createEmailRoute, type EmailRouteContext } from './email-route.js';
export { EMAIL_DEFAULTS, type EmailRouteOptions } from './options.js';
export { readEmailSettings } from './routes-entry.js';
export { classifyMailError, type MailError } from './classify.js';
