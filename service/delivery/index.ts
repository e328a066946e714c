/** Delivery: the engine, the routes file, and the route contract. See docs/delivery.md. */
export { createDeliveryEngine, DEFAULT_ENGINE_TIMING, type DeliveryEngine, type RouteReport } from './engine.js';
export { loadRoutesFile, ROUTE_KINDS, type DeliveryConfig, type RouteKindReader } from './routes-file.js';
export { Settings, SettingsError } from './settings.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy.js';
export type { Route, RouteEvents, RouteStatus, OutgoingMessage, SubmitResult, Receipt } from './route.js';
