/**
 * Raw HTTP over a TCP socket, for what undici will not send (smuggling shapes, slow clients,
 * bodies that never end). Every exchange is bounded by `waitMs`.
 */
import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1. */
  readonly text: string;
  /** Whether the server closed the connection (before `waitMs`). */
  readonly closedByServer: boolean;
  readonly ms: number;
}

export interface RawOptions {
  /** Give up (and close) after this long (default 3 s). */
  readonly waitMs?: number;
  /** Pause between pieces (default 0). */
  readonly gapMs?: number;
  /** Stop once the text matches (e.g. a complete response). */
  readonly until?: RegExp;
}

export function rawExchange(
  port: number,
  pieces: ReadonlyArray<string | Buffer>,
  options: RawOptions = {},
): Promise<RawExchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const done = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      socket.destroy();
      resolve({ text, closedByServer, ms: performance.now() - started });
    };
    timers.push(setTimeout(() => done(false), options.waitMs ?? 3_000));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (options.until?.test(text) === true) done(false);
    });
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    socket.on('connect', () => {
      const gap = options.gapMs ?? 0;
      pieces.forEach((piece, i) => {
        const write = (): void => {
          if (!socket.destroyed) socket.write(piece);
        };
        if (gap === 0) write();
        else timers.push(setTimeout(write, i * gap));
      });
    });
  });
}

/** The status codes of every response in `text`, in order. */
export function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}
