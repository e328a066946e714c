/**
 * The delivery guarantee across crashes against Net::SMPP (the Perl SMSC, which shares no code
 * with the route): 10 kill -9 of `smskit serve --routes`, each on a submit_sm it has not answered,
 * checked as delivery-crash.test.ts checks the simulator's (delivery-crash-check.ts).
 */
import { afterAll, describe, it } from 'vitest';
import { tempDir } from '../../tools/serve-process.js';
import { requirePeer } from '../helpers/peers.js';
import { checkCrashes } from './delivery-crash-check.js';
import { startNetSmppSmsc } from './crash-smsc.js';

const PERL_RUNS = Number(process.env.DELIVERY_CRASH_PERL_RUNS ?? 10);
const SEED = Number(process.env.DELIVERY_CRASH_SEED ?? 4242);
const netSmpp = requirePeer('net-smpp', 'reliability/delivery-crash-net-smpp: the Net::SMPP kills');
const dir = tempDir('delivery-crash-net-smpp');

afterAll(() => dir.remove());

describe('SIGKILL during delivery', () => {
  it.skipIf(netSmpp.skip)(
    `${PERL_RUNS} kills against Net::SMPP, each on a submit: every acknowledged message delivered, duplicates only when flagged`,
    async () => {
      const smsc = await startNetSmppSmsc();
      try {
        await checkCrashes(dir.path, smsc, PERL_RUNS, SEED + 1);
      } finally {
        await smsc.close();
      }
    },
    600_000,
  );
});
