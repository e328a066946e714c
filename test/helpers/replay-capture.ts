/**
 * Sends a captured request (asmx-captures.ts) to another server: the same method, path and
 * query, headers and body bytes; only Host changes, to the server's own.
 */
import { request } from 'undici';
import type { Answer } from './answer-structure.js';
import { requestTarget, type Capture } from './asmx-captures.js';

export async function replayCapture(origin: string, capture: Capture): Promise<Answer> {
  const { method, target } = requestTarget(capture);
  const headers = capture.request.headers.filter(([name]) => name.toLowerCase() !== 'host').flat();
  const body = capture.request.body.length === 0 ? undefined : capture.request.body;
  const response = await request(`${origin}${target}`, {
    method: method as 'GET' | 'POST',
    headers,
    body: body ?? null,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: Buffer.from(await response.body.arrayBuffer()),
  };
}
