/**
 * How a long-running command (serve, smsc, record, outbox --follow) learns that it should stop,
 * and the pid line it prints on start so a script or a process manager knows what to signal.
 *
 * Stop requests: SIGINT (Ctrl-C), SIGTERM (kill, systemd, Docker) and SIGHUP (the terminal went
 * away); each ends the command gracefully with exit 0.
 *
 * Under `npx` / `npm exec`, npm starts the command through `sh -c`, and on SIGTERM npm signals
 * only that shell, which dies without passing it on: the command would be left running with
 * nobody to stop it (its port held). So when npm's environment says it was started by npm exec,
 * the command also watches its parent and stops, as on SIGTERM, once the parent is gone. What
 * cannot be fixed from here is the wrapper's own exit status (npm reports a Ctrl-C as 130 however
 * the command ended) and `kill -INT` to a background npx (a non-interactive shell starts
 * background jobs with SIGINT ignored, so the shell never passes it on): docs/deployment.md says
 * to run the installed `node_modules/.bin/smskit` under a process manager instead.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the npm-exec parent is looked at: a stop arrives at most this late. */
const PARENT_POLL_MS = 250;

/** The line every long-running command prints on start (stderr for commands whose stdout is data). */
export function pidLine(command: string): string {
  return `smskit ${command}: pid ${process.pid} (stop with Ctrl-C or kill ${process.pid})`;
}

/** True when npm exec (npx) started this process, through a shell that does not pass SIGTERM on. */
export function startedByNpmExec(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx';
}

/**
 * Calls `onStop` once with the reason (a signal name, or `parent exited` under npm exec) and
 * returns the function that stops listening; once it has, a second Ctrl-C ends the process the
 * default way (the way out of a graceful stop that hangs).
 */
export function onStopRequest(onStop: (reason: string) => void): () => void {
  let stopped = false;
  const stop = (reason: string): void => {
    if (stopped) return;
    stopped = true;
    onStop(reason);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  const parent = process.ppid;
  const watch = startedByNpmExec()
    ? setInterval(() => {
        if (process.ppid !== parent) stop('parent exited (npm exec)');
      }, PARENT_POLL_MS).unref()
    : undefined;
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
    if (watch !== undefined) clearInterval(watch);
  };
}

/** Resolves with the reason of the first stop request; stops listening then. */
export function waitForStopRequest(): Promise<string> {
  return new Promise((resolve) => {
    const dispose = onStopRequest((reason) => {
      dispose();
      resolve(reason);
    });
  });
}
