// What the CLI bundle takes from undici, in place of its index.js: index.js also loads fetch,
// WebSocket, the cache, cookies, EventSource and the mocks (~90 ms of every command that sends
// a request). These are the very modules index.js re-exports, so `Pool`, the proxy agents and
// `errors` are the same objects under tsx and in the bundle. test/cli/bundle.test.ts checks that every value the
// sources import from 'undici' is exported here. Used only by scripts/build-cli.mjs.
'use strict';
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher.js');
// As index.js does: request(), stream(), pipeline()... are methods every dispatcher gets here.
Object.assign(Dispatcher.prototype, require('../node_modules/undici/lib/api/index.js'));
module.exports = {
  // The callback sender's keep-alive pools, one per receiver origin.
  Agent: require('../node_modules/undici/lib/dispatcher/agent.js'),
  Pool: require('../node_modules/undici/lib/dispatcher/pool.js'),
  ProxyAgent: require('../node_modules/undici/lib/dispatcher/proxy-agent.js'),
  EnvHttpProxyAgent: require('../node_modules/undici/lib/dispatcher/env-http-proxy-agent.js'),
  buildConnector: require('../node_modules/undici/lib/core/connect.js'),
  errors: require('../node_modules/undici/lib/core/errors.js'),
};
