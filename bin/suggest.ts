/** "Did you mean --wsdl?" for a mistyped flag in a yargs "Unknown argument(s): ..." message. */

/** Edit distance (insert, delete, substitute, swap two neighbours), capped by the caller's use. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known flag closest to `given`, when it is close enough to be a typo (about one edit in three letters). */
export function closestFlag(given: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(given.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of [...known].sort()) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    const prefix = name.startsWith(given) && given.length >= 3;
    const score = prefix ? 0.5 : distance;
    if ((prefix || distance <= limit) && (best === undefined || score < best.distance))
      best = { name, distance: score };
  }
  return best?.name;
}

/** `; did you mean --wsdl?` for each unknown flag of a yargs message that has a close known one, else ''. */
export function suggestFlags(message: string, known: readonly string[]): string {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (match === undefined || match === null) return '';
  const given = match[1]!.split(', ').map((name) => name.replace(/^-+/, ''));
  const hints = given.flatMap((name) => {
    const flag = closestFlag(name, known);
    return flag === undefined ? [] : [`--${flag}`];
  });
  return hints.length === 0 ? '' : `; did you mean ${hints.join(', ')}?`;
}

/**
 * The long flags in `argv` that yargs does not know. yargs reports a missing required flag
 * before an unknown one, so `send --mesage hi` would only say that `message` is missing; the
 * typo is the cause, so it is named first.
 */
export function unknownFlags(argv: readonly string[], known: readonly string[]): string[] {
  const names = new Set(known.map((name) => name.toLowerCase()));
  const unknown: string[] = [];
  for (const arg of argv) {
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.length < 3) continue;
    const name = arg.slice(2).split('=')[0]!;
    const plain = name.toLowerCase();
    if (names.has(plain) || (plain.startsWith('no-') && names.has(plain.slice(3)))) continue;
    if (names.has(plain.replace(/-([a-z])/g, (_m, c: string) => c))) continue;
    unknown.push(name);
  }
  return unknown;
}

/** A yargs "Missing required argument" message led by the unknown flags that likely caused it. */
export function explainMissing(message: string, argv: readonly string[], known: readonly string[]): string {
  if (!/^Missing required arguments?:/.test(message)) return message;
  const unknown = unknownFlags(argv, known);
  if (unknown.length === 0) return message;
  const unknownMessage = `Unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`;
  return `${unknownMessage}${suggestFlags(unknownMessage, known)} ${message}`;
}
