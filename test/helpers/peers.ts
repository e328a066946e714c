/**
 * The one gate for every test that needs a program or library the repository does not ship: the
 * real SOAP stacks, genuine ASMX on Mono, PostgreSQL, Net::SMPP, aiosmtpd, zeep, Chromium,
 * openssl and the `../shared` folder. Each peer's probe checks exactly what its tests import or
 * run, so a probe that passes means the tests can start.
 *
 * Outside CI a missing peer skips its group with one console line naming the Debian package; a
 * fresh clone must pass `npm test`. In CI (`CI` set, as `.ci/run` exports it) every peer is
 * installed on purpose, so a missing one is a broken machine, not a reason to pass: the group's
 * file fails at collection with the peer and the package to install. The skip audit
 * (test/setup/skip-audit.ts) catches any skip that slips past this gate.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { sharedDir } from './shared-dir.js';

/** True when the run is CI's: then nothing may skip for want of a peer. */
export const inCi = (process.env.CI ?? '') !== '';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The first of the commands that exits 0, as `command args…`, or the one that failed. */
function firstFailing(probes: readonly (readonly string[])[]): string | undefined {
  for (const [command, ...args] of probes)
    if (spawnSync(command!, args, { stdio: 'ignore', timeout: 30_000 }).status !== 0)
      return `\`${[command, ...args].join(' ')}\` fails`;
  return undefined;
}

const pythons = new Map<string, string | undefined>();

/**
 * A python3 that imports every module of `imports` (e.g. `spyne, lxml`); pyenv shims can shadow
 * the Debian interpreter that has the package, so both are tried (after the one CI names).
 */
export function pythonWith(imports: string): string | undefined {
  if (!pythons.has(imports))
    pythons.set(
      imports,
      [process.env.SMSKIT_ZEEP_PYTHON, '/usr/bin/python3', 'python3'].find(
        (bin): bin is string =>
          bin !== undefined &&
          bin !== '' &&
          spawnSync(bin, ['-c', `import ${imports}`], { stdio: 'ignore', timeout: 30_000 }).status === 0,
      ),
    );
  return pythons.get(imports);
}

function python(imports: string): string | undefined {
  return pythonWith(imports) === undefined ? `no python3 can \`import ${imports}\`` : undefined;
}

function missingCommands(commands: readonly string[]): string | undefined {
  const missing = commands.filter((command) => !onPath(command));
  return missing.length === 0 ? undefined : `${missing.join(', ')} not on PATH`;
}

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return 'no /usr/lib/postgresql/*/bin/initdb';
  const found = readdirSync(root).some((version) => existsSync(join(root, version, 'bin', 'initdb')));
  if (!found) return 'no /usr/lib/postgresql/*/bin/initdb';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0)
    return 'running as root and there is no postgres user to run PostgreSQL';
  return resolvable('pg');
}

function resolvable(module: string): string | undefined {
  try {
    import.meta.resolve(module);
    return undefined;
  } catch {
    return `the npm package ${module} is not installed (npm ci)`;
  }
}

const ASMX_HOST = join(sharedDir, 'asmx-host', 'asmx-host');

function asmxHost(): string | undefined {
  try {
    accessSync(ASMX_HOST, constants.X_OK);
    return undefined;
  } catch {
    return `no ASMX host at ${ASMX_HOST} (../shared beside the repository)`;
  }
}

interface Peer {
  /** What .ci/run installs for it (Debian packages unless said otherwise). */
  readonly install: string;
  /** Why it cannot run here, or undefined when every tool its tests use is present. */
  probe(): string | undefined;
}

/** Every peer, probed by what its tests run: the tests name a row, never probe on their own. */
export const PEERS = {
  spyne: { install: 'python3-spyne python3-lxml', probe: () => python('spyne, lxml') },
  php: {
    install: 'php-cli php-soap',
    probe: () => firstFailing([['php', '-r', 'exit(class_exists("SoapServer") ? 0 : 1);']]),
  },
  gsoap: {
    install: 'gsoap libgsoap-dev g++',
    // -h prints help; -v would read a header from stdin and write files here
    probe: () =>
      firstFailing([
        ['soapcpp2', '-h'],
        ['g++', '--version'],
        ['test', '-f', '/usr/include/stdsoap2.h'],
      ]),
  },
  jaxws: {
    install: 'default-jdk-headless jaxws libjaxws-java',
    probe: () =>
      firstFailing([
        ['javac', '-version'],
        ['wsgen', '-version'],
        ['test', '-f', '/usr/share/java/jaxws-rt.jar'],
      ]),
  },
  wcf: {
    install: 'mono-devel',
    probe: () =>
      firstFailing([
        ['mcs', '--version'],
        ['mono', '--version'],
      ]),
  },
  asmx: {
    install: 'mono-devel and put ../shared beside the checkout',
    probe: () => asmxHost() ?? missingCommands(['mono', 'mcs']),
  },
  'mono-wsdl': { install: 'mono-devel', probe: () => missingCommands(['mono', 'mcs', 'wsdl']) },
  postgres: { install: 'postgresql', probe: postgresBin },
  'net-smpp': {
    install: 'libnet-smpp-perl',
    probe: () => firstFailing([['perl', '-MNet::SMPP', '-MJSON::PP', '-e1']]),
  },
  aiosmtpd: { install: 'python3-aiosmtpd', probe: () => python('aiosmtpd') },
  zeep: { install: 'python3-zeep', probe: () => python('zeep') },
  chromium: {
    install: 'chromium',
    probe: () => (existsSync('/usr/bin/chromium') ? resolvable('playwright-core') : 'no /usr/bin/chromium'),
  },
  openssl: { install: 'openssl', probe: () => firstFailing([[process.env.OPENSSL ?? 'openssl', 'version']]) },
} satisfies Record<string, Peer>;

export type PeerName = keyof typeof PEERS;

export interface PeerGate {
  /** For `describe.skipIf(…)`: true only outside CI, when the peer is missing. */
  readonly skip: boolean;
  /** The one line said when skipping; undefined when the peer is here. */
  readonly reason: string | undefined;
}

const probed = new Map<string, string | undefined>();
const said = new Set<string>();

/** Says the skip line once per group, or in CI throws: a missing peer there fails the file. */
function gate(group: string, peer: string, missing: string | undefined, remedy: string): PeerGate {
  if (missing === undefined) return { skip: false, reason: undefined };
  if (inCi)
    throw new Error(`${group}: ${peer} is missing (${missing}); CI must run these tests: ${remedy} (see .ci/run)`);
  const reason = `${group}: skipped — ${missing} (${remedy}); CI runs it`;
  if (!said.has(reason)) console.warn(reason);
  said.add(reason);
  return { skip: true, reason };
}

/**
 * The gate a test file calls once per group at its top: `const peer = requirePeer('zeep',
 * 'peers/zeep')`, then `describe.skipIf(peer.skip)`.
 */
export function requirePeer(name: PeerName, group: string): PeerGate {
  const peer: Peer = PEERS[name];
  if (!probed.has(name)) probed.set(name, peer.probe());
  return gate(group, name, probed.get(name), `install ${peer.install}`);
}

/**
 * The gate for `../shared/<sub>`: a fresh clone lacks it and skips; CI runs with it beside the
 * checkout, so there its absence fails like a missing peer.
 */
export function requireShared(sub: string, group: string): PeerGate {
  return gate(group, '../shared', sharedMissing(sub), 'put the shared folder beside the checkout');
}

/** Why `../shared/<sub>` cannot be read, or undefined; for the bench, which skips rather than fails. */
export function sharedMissing(sub: string): string | undefined {
  return existsSync(join(sharedDir, sub)) ? undefined : `../shared/${sub} is absent`;
}
