/**
 * `smskit serve --routes` as shipped: a broken routes file stops the start with one line naming
 * file:line:column (exit 2, no stack trace, no secret); a valid one is named in the start-up text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync, startServe, tempDir } from '../../../tools/serve-process.js';

const dir = tempDir('serve-routes');
afterAll(() => dir.remove());

describe('smskit serve --routes', () => {
  it('refuses a broken routes file with one line naming where, exit 2', async () => {
    const file = join(dir.path, 'broken.yaml');
    writeFileSync(
      file,
      'routes:\n  main:\n    type: smpp\n    host: h\n    systemId: x\n    passwordEnv: NOT_SET_ANYWHERE_X\n',
    );
    const result = await runCliAsync(['serve', '--port', '0', '--db', join(dir.path, 'a.db'), '--routes', file]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `smskit: ${file}:6:5: routes.main.passwordEnv names NOT_SET_ANYWHERE_X, which is not set in the environment`,
    ]);
  });

  it('names the routes at start, and which carrier codes no route takes', async () => {
    const file = join(dir.path, 'routes.yaml');
    writeFileSync(
      file,
      'routes:\n  main:\n    type: smpp\n    host: 127.0.0.1\n    port: 1\n    systemId: x\n    passwordEnv: ROUTES_TEST_PW\ncarriers:\n  att: main\n',
    );
    process.env.ROUTES_TEST_PW = 'pw';
    const server = await startServe({ db: join(dir.path, 'b.db'), args: ['--routes', file] });
    delete process.env.ROUTES_TEST_PW;
    try {
      const line = server
        .output()
        .stdout.split('\n')
        .find((l) => l.includes('delivery:'));
      expect(line).toMatch(
        new RegExp(`delivery:  main \\(smpp\\) from ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; no route for `),
      );
      expect(line).toContain('verizon');
    } finally {
      await server.stop();
    }
  });
});
