/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temp dir, a free TCP port on 127.0.0.1
 * and the unix socket in the same dir, stopped and removed by `stop()`. Debian's `postgresql`
 * package provides the programs (.ci/run installs it); without them the peer gate
 * (`requirePeer('postgres', …)`, test/helpers/peers.ts) skips the tests, or fails them in CI.
 *
 * PostgreSQL refuses to run as root, and CI runs as root: then the cluster belongs to the
 * `postgres` user (the package creates it) and its programs run through `runuser`.
 *
 * Two ways in, both real: `socketUrl(db)` (trust over the unix socket, for in-process tests) and
 * `tcpUrl(db)` + `password` (scram-sha-256 over TCP, the way an operator connects; the password
 * goes in PGPASSWORD, never in the URL).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const USER = 'smskit';

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const isRoot = process.getuid?.() === 0;

function postgresUid(): { uid: number; gid: number } | undefined {
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  readonly dir: string;
  readonly port: number;
  readonly password: string;
  /** Connection string over the unix socket (trust): no password needed. */
  socketUrl(database?: string): string;
  /** Connection string over TCP (scram-sha-256): give `password` in PGPASSWORD. */
  tcpUrl(database?: string): string;
  /**
   * A new database: empty (a copy of template1), or a copy of `template` (a database no one is
   * connected to). Made over a connection of this process, not a psql process (~80 ms of CPU
   * each, through runuser as root), and by copying files (`STRATEGY = FILE_COPY`) rather than
   * writing every page of the template to the WAL (~190 → ~120 ms of the server's CPU).
   */
  createDatabase(name: string, options?: { template?: string | undefined }): Promise<void>;
  /** Runs SQL as the cluster's superuser through psql (for test setup and inspection). */
  psql(sql: string, database?: string): string;
  /** Stops the server (fast shutdown: open connections are cut), keeping its data. */
  stopServer(): void;
  startServer(): void;
  stop(): void;
}

export interface ClusterOptions {
  /** Extra server settings (`-c name=value`). */
  readonly settings?: Readonly<Record<string, string>>;
  /** A cluster made by `initTemplate` to copy instead of running initdb (a second or so each). */
  readonly template?: ClusterTemplate;
}

/** A stopped cluster's data folder to copy, and the password its superuser was made with. */
export interface ClusterTemplate {
  readonly data: string;
  readonly password: string;
}

type ProgramRunner = (program: string, args: string[]) => string;

/** A folder for a cluster, owned by the user its programs run as, and how to run them. */
function clusterFolder(dir: string): { run: ProgramRunner; owner: { uid: number; gid: number } | undefined } {
  const bin = binDir();
  if (bin === undefined) throw new Error('PostgreSQL is not installed');
  const owner = isRoot ? postgresUid() : undefined;
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
  chmodSync(dir, 0o755);
  const run: ProgramRunner = (program, args) => {
    const [cmd, argv] =
      owner !== undefined
        ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
        : [join(bin, program), args];
    return execFileSync(cmd as string, argv as string[], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  return { run, owner };
}

/** Runs initdb in `dir`/data: the superuser USER with a new password (scram over TCP, trust on the socket). */
export function initTemplate(dir: string): ClusterTemplate {
  return initdb(dir, clusterFolder(dir));
}

function initdb(dir: string, { run, owner }: ReturnType<typeof clusterFolder>): ClusterTemplate {
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner !== undefined) chownSync(pwfile, owner.uid, owner.gid);
  run('initdb', [
    '-D',
    data,
    '-U',
    USER,
    '--pwfile',
    pwfile,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  rmSync(pwfile);
  return { data, password };
}

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-pg-'));
  const folder = clusterFolder(dir);
  const { run } = folder;
  const data = join(dir, 'data');
  let password: string;
  if (options.template === undefined) password = initdb(dir, folder).password;
  else {
    // A copy keeps owner and mode (PostgreSQL refuses a data folder others can read).
    execFileSync('cp', ['-a', options.template.data, data]);
    password = options.template.password;
  }
  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    max_connections: '100',
    ...options.settings,
  };
  const serverArgs = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  const startServer = (): void => {
    run('pg_ctl', ['-D', data, '-o', serverArgs, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  const stopServer = (): void => {
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  startServer();
  const psql = (sql: string, database = 'postgres'): string =>
    run('psql', [
      '-X',
      '-q',
      '-A',
      '-t',
      '-h',
      dir,
      '-p',
      String(port),
      '-U',
      USER,
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      sql,
    ]);
  let stopped = false;
  return {
    dir,
    port,
    password,
    socketUrl: (database = 'postgres') =>
      `postgres://${USER}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`,
    tcpUrl: (database = 'postgres') => `postgres://${USER}@127.0.0.1:${port}/${database}`,
    async createDatabase(name, options = {}) {
      const client = new pg.Client({ user: USER, host: dir, port, database: 'postgres' });
      await client.connect();
      try {
        const template = options.template === undefined ? '' : ` TEMPLATE "${options.template}"`;
        await client.query(`CREATE DATABASE "${name}"${template} STRATEGY = FILE_COPY`);
      } finally {
        await client.end();
      }
    },
    psql,
    stopServer,
    startServer,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        stopServer();
      } catch {
        /* already down */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
