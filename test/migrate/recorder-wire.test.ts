/**
 * The recorder as an HTTP intermediary, against small hand-written upstreams: an answer that
 * breaks off, compression, the Connection header's own list, and the forwarding headers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type LoadedRecording, type Recorder, readRecording, startRecorder } from '../../migrate/index.js';
import { waitFor } from '../helpers/wait-for.js';

const work = mkdtempSync(join(tmpdir(), 'smskit-recorder-wire-'));
let dirs = 0;
const open: Server[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => new Promise((r) => s.close(r))));
  rmSync(work, { recursive: true, force: true });
});

async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  open.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function recorderFor(origin: string): Promise<{ recorder: Recorder; dir: string }> {
  const dir = join(work, `rec-${++dirs}`);
  return { recorder: await startRecorder({ upstream: origin, out: dir, port: 0, onWarning: () => undefined }), dir };
}

async function recording(recorder: Recorder, dir: string, count: number): Promise<LoadedRecording> {
  await waitFor(`${count} exchanges stored`, () => recorder.recorded() >= count);
  await recorder.close();
  return readRecording(dir);
}

describe('the recorder as an intermediary', () => {
  it('aborts the client when the upstream breaks off mid-body, and stores the answer cut', async () => {
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write('<partial>'.repeat(100));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { recorder, dir } = await recorderFor(origin);
    const res = await request(`${recorder.url}/svc.asmx`, { method: 'POST', body: '<x/>' });
    expect(res.statusCode).toBe(200);
    await expect(res.body.text()).rejects.toThrow();
    const rec = await recording(recorder, dir, 1);
    expect(rec.exchanges[0]!.response!.truncated).toBe(true);
    expect(Buffer.from(rec.exchanges[0]!.response!.body, 'base64').toString()).toContain('<partial>');
  });
});
