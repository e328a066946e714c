// Loaded with `node --import` into a child under test: when the child exits, its peak resident
// set size (getrusage ru_maxrss, in KiB) is written to $SMSKIT_TEST_PEAK_RSS_FILE. Measured by
// the kernel, so a short spike between two polls is not missed.
import { writeFileSync } from 'node:fs';

const file = process.env.SMSKIT_TEST_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
