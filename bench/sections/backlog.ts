/** placeholder */
import type { Row, Settings } from '../lib/report.js';
export async function runBacklogSection(
  _settings: Settings,
  _log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  return { rows: [], figures: {} };
}
