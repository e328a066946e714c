/**
 * Waiting for something to happen instead of sleeping and hoping it has: polls `condition` until
 * it holds and resolves at once; rejects, naming what it waited for, only when it still does not
 * after `timeoutMs`. That bound is generous on purpose (a hang, not a slow machine, reaches it).
 */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; pollMs?: number; state?: () => string } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(
        `still not ${what} after ${timeoutMs} ms${options.state === undefined ? '' : ` (${options.state()})`}`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 10));
  }
}
