/**
 * The SMSC simulator in its own process (so it never shares an event loop with the service):
 * starts, answers `{ port }` over IPC, then `{ stats }` for every `stats` request.
 */
import { startSmsc } from '../../service/delivery/simulator/index.js';

const [systemId = 'bench', password = 'bench123', throttle = '0'] = process.argv.slice(2);
const smsc = await startSmsc({ systemId, password, throttlePerSecond: Number(throttle), keep: 10 });
process.send?.({ port: smsc.port });
process.on('message', () => process.send?.({ stats: { ...smsc.stats } }));
process.on('SIGTERM', () => {
  void smsc.close().then(() => process.exit(0));
});
