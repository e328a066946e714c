/**
 * The fenced examples of a Markdown document and the doc-run markers in front of them
 * (docs/development.md, "Examples that run"). A marker is an HTML comment on the line right
 * before the fence:
 *
 *   <!-- doc-run: skip=clone  -->            not run, with a reason from SKIP_REASONS
 *   <!-- doc-run: file=src/app.ts run stdout="9" -->
 *
 * Words are `name` or `name=value` (value quoted with "…" when it holds spaces). Unknown words,
 * a skip without a known reason and a marker not followed by a fence are errors, so a typo never
 * turns an example off silently.
 */

/** Languages whose examples are executed; every other fence (text, xml, python, none) is for reading. */
export const RUN_LANGUAGES = new Set(['sh', 'bash', 'ts', 'json', 'yaml']);

/** Why an example may not run. Anything else is a mistake in the marker. */
export const SKIP_REASONS: Readonly<Record<string, string>> = {
  clone: 'runs in a clone of smskit (npm test, npm start): CI runs those in the repository itself',
  setup: 'the steps that make the consumer project; the suite makes its project the same way',
  fragment: 'part of a larger file, shown for its shape (types, a handler inside an object)',
  'ci-workflow': 'a CI workflow for another system (GitHub Actions); parsed as YAML, not run',
  'needs-peer': 'needs a program CI does not install for the docs (gh, a zeep client, a real .NET host)',
  'needs-secret': 'needs credentials or a host only a real deployment has; the same flags run elsewhere in the docs',
};

const DIRECTIVES = new Set([
  'skip',
  'file',
  'run',
  'stdout',
  'exit',
  'background',
  'ready',
  'port',
  'stand-in',
  'prelude',
  'env',
  'unit',
]);

export interface Marker {
  readonly skip?: string;
  /** Where a ts/json/yaml block is written in the project (ts default: src/doc-<line>.ts). */
  readonly file?: string;
  /** ts: run the compiled file with node after compiling. */
  readonly run: boolean;
  /** Lines that must appear, in this order, in the block's stdout. */
  readonly stdout?: string;
  /** The exit status the block must end with (default 0). */
  readonly exit: number;
  /** sh: a long-running process (a server): started, waited for until `ready`, stopped at the end of the document. */
  readonly background: boolean;
  readonly ready?: string;
  /** A port the document writes (8080): replaced by a free one in this block and every later one. */
  readonly port?: number;
  /** A local stand-in for an internet service the block names (its URL replaced by the stand-in's). */
  readonly standIn?: string;
  /** ts: declarations compiled in front of a snippet that uses names defined elsewhere. */
  readonly prelude?: string;
  /** sh: NAME=value variables given to the block (a password a prompt would ask for). */
  readonly env: Readonly<Record<string, string>>;
  /** ini: a systemd unit; its ExecStart is run directly and stopped with its KillSignal (systemd-unit.ts). */
  readonly unit: boolean;
}

export interface DocBlock {
  readonly doc: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  readonly marker: Marker;
  readonly marked: boolean;
}

export class MarkerError extends Error {}

function words(text: string): [string, string | undefined][] {
  const found: [string, string | undefined][] = [];
  const pattern = /([\w-]+)(?:=(?:"([^"]*)"|(\S+)))?/g;
  let rest = text.trim();
  for (const match of rest.matchAll(pattern)) found.push([match[1]!, match[2] ?? match[3]]);
  rest = rest.replace(pattern, '').trim();
  if (rest !== '') throw new MarkerError(`cannot read "${rest}"`);
  return found;
}

export function parseMarker(text: string, where: string): Marker {
  const marker: Record<string, unknown> = { run: false, exit: 0, background: false, env: {}, unit: false };
  for (const [name, value] of words(text)) {
    if (!DIRECTIVES.has(name)) throw new MarkerError(`${where}: unknown doc-run word "${name}"`);
    const need = (): string => {
      if (value === undefined || value === '') throw new MarkerError(`${where}: ${name} needs a value (${name}=…)`);
      return value;
    };
    switch (name) {
      case 'skip': {
        const reason = need();
        if (SKIP_REASONS[reason] === undefined)
          throw new MarkerError(
            `${where}: skip=${reason} is not a reason an example may skip (${Object.keys(SKIP_REASONS).join(', ')})`,
          );
        marker.skip = reason;
        break;
      }
      case 'run':
      case 'background':
      case 'unit':
        marker[name] = true;
        break;
      case 'exit':
      case 'port': {
        const n = Number(need());
        if (!Number.isInteger(n) || n < 0) throw new MarkerError(`${where}: ${name}=${value} is not a number`);
        marker[name] = n;
        break;
      }
      case 'env': {
        const [key, ...val] = need().split(':');
        (marker.env as Record<string, string>)[key!] = val.join(':');
        break;
      }
      case 'stand-in':
        marker.standIn = need();
        break;
      default:
        marker[name] = need();
    }
  }
  return marker as unknown as Marker;
}

const MARKER = /^<!--\s*doc-run:(.*?)-->\s*$/;

/** The fenced blocks of one document, with their markers; throws MarkerError on a bad marker. */
export function docBlocks(doc: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let pending: { marker: Marker; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = MARKER.exec(line);
    if (marker !== null) {
      pending = { marker: parseMarker(marker[1]!, `${doc}:${i + 1}`), line: i + 1 };
      continue;
    }
    const fence = /^(`{3,})\s*([\w-]*)/.exec(line);
    if (fence === null) {
      if (pending !== undefined && line.trim() !== '')
        throw new MarkerError(`${doc}:${pending.line}: a doc-run marker must be followed by a fenced block`);
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.startsWith(fence[1]!) && l.trim() === fence[1]);
    if (close < 0) throw new MarkerError(`${doc}:${i + 1}: the fence is never closed`);
    blocks.push({
      doc,
      line: i + 1,
      lang: fence[2]!,
      code: lines.slice(i + 1, close).join('\n'),
      marker: pending?.marker ?? parseMarker('', `${doc}:${i + 1}`),
      marked: pending !== undefined,
    });
    pending = undefined;
    i = close;
  }
  if (pending !== undefined)
    throw new MarkerError(`${doc}:${pending.line}: a doc-run marker must be followed by a fenced block`);
  return blocks;
}

/** True when `want`'s lines appear in `got` in order (`…` or `...` alone on a line: anything). */
export function outputMatches(got: string, want: string): boolean {
  const lines = got.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const expected of want.split('\n').map((l) => l.trimEnd())) {
    if (expected === '' || expected === '…' || expected === '...') continue;
    const found = lines.findIndex((l, i) => i >= at && l.includes(expected));
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}
