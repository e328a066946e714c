/**
 * The systemd-unit check of the doc-run suite (systemd-unit.ts) can fail: it passes a unit that
 * starts smskit itself and stops it with SIGTERM, and refuses one whose process is a wrapper (the
 * pid systemd tracks is not smskit's), one whose KillSignal kills instead of stopping, and an
 * ExecStart with shell syntax systemd would not run the same way.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { runUnit } from './systemd-unit.js';

const unit = (execStart: string, extra = ''): string => `[Unit]
Description=test

[Service]
WorkingDirectory=/srv/smskit
StateDirectory=smskit
ExecStart=${execStart}
${extra}
`;

describe('a systemd unit in the docs, run as systemd would', () => {
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'smskit-unit-'));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(repoRoot, 'bin', 'smskit.js'), join(project, 'node_modules', '.bin', 'smskit'));
    writeFileSync(join(project, 'wrapper.sh'), '#!/bin/sh\nnode_modules/.bin/smskit "$@"\nexit $?\n');
    chmodSync(join(project, 'wrapper.sh'), 0o755);
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const serve = 'serve --port 0 --db /var/lib/smskit/sms.sqlite';

  it('the installed binary, stopped by SIGTERM: exit 0, the pid printed is the process started', async () => {
    const run = await runUnit(unit(`/srv/smskit/node_modules/.bin/smskit ${serve}`, 'KillSignal=SIGTERM'), project);
    expect(run.exit).toEqual({ code: 0, signal: null });
    expect(run.argv).toContain(join(project, 'state', 'sms.sqlite'));
    expect(run.output).toContain('smskit serve: SIGTERM: finishing in-flight requests');
  });

  it('a wrapper script in front of smskit is refused: systemd would track the wrapper', async () => {
    await expect(runUnit(unit(`/srv/smskit/wrapper.sh ${serve}`), project)).rejects.toThrow(
      /the pid printed \(\d+\) is not the process ExecStart started/,
    );
  });

  it('a KillSignal that kills rather than stops is a failure for systemd', async () => {
    await expect(
      runUnit(unit(`/srv/smskit/node_modules/.bin/smskit ${serve}`, 'KillSignal=SIGKILL'), project),
    ).rejects.toThrow(/SIGKILL ended ExecStart with SIGKILL, a failure for systemd/);
  });

  it('shell syntax in ExecStart is refused (systemd does not run a shell)', async () => {
    await expect(
      runUnit(unit(`/srv/smskit/node_modules/.bin/smskit ${serve} > "/var/log/smskit.log"`), project),
    ).rejects.toThrow(/ExecStart holds something systemd interprets/);
  });
});
