/**
 * A throw-away PostgreSQL cluster for a test file (test/helpers/postgres-cluster.ts), copied from
 * one initdb made once a run (test/helpers/once-per-run.ts) rather than made by initdb again.
 * Each copy is a cluster of its own: its folder, port, server and databases.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oncePerRun } from './once-per-run.js';
import { type ClusterOptions, initTemplate, type PostgresCluster, startPostgresCluster } from './postgres-cluster.js';

export async function startTestCluster(options: Omit<ClusterOptions, 'template'> = {}): Promise<PostgresCluster> {
  const template = await oncePerRun(
    'postgres-template',
    'the PostgreSQL template cluster',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'smskit-pg-template-'));
      chmodSync(dir, 0o755);
      return dir;
    },
    initTemplate,
  );
  return startPostgresCluster({ ...options, template });
}
