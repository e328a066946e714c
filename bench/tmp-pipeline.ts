import { EventEmitter } from 'node:events';
import { createServiceAPIListener } from '../generated/service-api/index.js';
import { FIXED_INPUT, sendRequest } from './lib/payloads.js';
const binding = (process.argv[2] ?? 'soap11') as 'soap11';
const spec = sendRequest(binding, FIXED_INPUT);
const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
const headers: Record<string, string> = {};
for (const [k, v] of Object.entries(spec.headers)) headers[k.toLowerCase()] = v;
if (body) headers['content-length'] = String(body.length);
const listener = createServiceAPIListener({
  SMSSend: () => ({ SMSSendResult: 'ok-1' }),
  SMSSendToPort: () => ({ SMSSendToPortResult: 'ok-1' }),
});
let written = 0;
class Res {
  headersSent = false; destroyed = false; writableFinished = false;
  writeHead(_s: number, _h: unknown) { this.headersSent = true; }
  end(_t: unknown) { written++; }
  setHeader() {}
  once() {}
}
const socket = { remoteAddress: '127.0.0.1' };
async function one(): Promise<void> {
  const req = new EventEmitter() as any;
  req.method = spec.method; req.url = spec.path; req.headers = headers; req.socket = socket;
  const res = new Res();
  listener(req, res as any);
  if (body) { req.emit('data', Buffer.from(body)); req.emit('end'); }
  await Promise.resolve(); await Promise.resolve(); await Promise.resolve();
}
for (let i = 0; i < 50000; i++) await one();
const n = 1000000; const t = process.hrtime.bigint();
for (let i = 0; i < n; i++) await one();
console.log(binding, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'us per request in process; answered', written);
