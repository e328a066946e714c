/**
 * Small hand-written upstreams for recorder tests, each on port 0, and a recorder in front of
 * one; every server and folder made here is gone once the test file ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { type LoadedRecording, type Recorder, readRecording, startRecorder } from '../../migrate/index.js';
import { waitFor } from '../helpers/wait-for.js';

/** Registers its clean-up with the calling test file's afterAll. */
export function handUpstreams(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let dirs = 0;
  const open: Server[] = [];
  afterAll(async () => {
    await Promise.all(open.map((s) => new Promise((r) => s.close(r))));
    rmSync(work, { recursive: true, force: true });
  });
  return {
    async upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
      const server = createServer(handler);
      open.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async recorderFor(origin: string, warnings: string[] = []): Promise<{ recorder: Recorder; dir: string }> {
      const dir = join(work, `rec-${++dirs}`);
      const recorder = await startRecorder({ upstream: origin, out: dir, port: 0, onWarning: (w) => warnings.push(w) });
      return { recorder, dir };
    },
  };
}

/** The recording once `count` exchanges are stored and the recorder has closed. */
export async function recording(recorder: Recorder, dir: string, count: number): Promise<LoadedRecording> {
  await waitFor(`${count} exchanges stored`, () => recorder.recorded() >= count);
  await recorder.close();
  return readRecording(dir);
}
