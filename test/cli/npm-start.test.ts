/**
 * `npm start` (`smskit conformance` without --target) as a newcomer sees it: one line saying what
 * it started (the built-in service, a throw-away database and account), the refusals it accepted
 * shown as passes, and one line saying what to try next.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('smskit conformance without --target (npm start)', () => {
  it('says what it started and what to try next, and shows refusals as accepted', () => {
    const result = runCli(['conformance']);
    expect(result.status, result.stderr).toBe(0);
    const stderr = result.stderr
      .split('\n')
      .filter((line) => (line !== '' && !line.startsWith('smskit conformance: ')) || line.includes('no --target'));
    expect(stderr).toEqual([
      expect.stringMatching(
        /^smskit conformance: no --target, so it started the built-in SMS service at http:\/\/127\.0\.0\.1:\d+\/serviceapi\.asmx, with a throw-away database and account \(gone when the run ends\)$/,
      ),
      'Next: check your own server with `npx smskit conformance --target <URL>` (--wsdl <file or URL> for another contract), or run this service with `npx smskit serve`',
    ]);
    expect(result.stdout).toMatch(
      /^Accepted refusals \(16\): values the service may reject, refused in the right shape — these cases passed:$/m,
    );
    const refusals = result.stdout.split('\n').filter((line) => /\/ok\/(empty|long)\b/.test(line));
    expect(refusals).toHaveLength(16);
    for (const line of refusals) expect(line).toMatch(/^ {2}✓ \S+ \(refused: (Client|Sender|HTTP 500): \w+: .+\)$/);
    expect(result.stdout).toMatch(/^PASS \(--fail-on must\): 83 cases, 83 passed, 0 failed/m);
  });
});
