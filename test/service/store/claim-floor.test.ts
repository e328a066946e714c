/**
 * A lane's claim floor on PostgreSQL (service/store/postgres/claim-floor.ts): claims read from
 * the lowest id the lane last took, and from the start of the queue once a second and whenever
 * a message this instance put back is due, so nothing queued below the floor is left behind.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimedMessage, ClaimRequest } from '../../../service/store/index.js';
import { ClaimFloors, FULL_SCAN_EVERY_MS } from '../../../service/store/postgres/claim-floor.js';

const request = (now: number, route = 'r'): ClaimRequest => ({
  route,
  carriers: { except: [] },
  limit: 10,
  owner: 'w',
  now,
  leaseUntil: now + 60_000,
});
const taken = (...ids: string[]) => ids.map((id) => ({ id }) as ClaimedMessage);
const owned = (at: number) => ({ id: 'SMS-0', owner: 'w', at, attempt: 1, route: 'r' });

/** One claim of `lane` at `now` taking `ids`; returns the floor it read from. */
function claimAt(floors: ClaimFloors, now: number, ids: string[], route = 'r'): string {
  const floor = floors.floorFor(request(now, route));
  floors.claimed(request(now, route), floor, taken(...ids));
  return floor;
}

describe('claim floors', () => {
  it('reads the whole queue first, then from the lowest id the last claim took', () => {
    const floors = new ClaimFloors();
    expect(claimAt(floors, 1_000, ['SMS-B', 'SMS-C'])).toBe('');
    expect(claimAt(floors, 1_010, ['SMS-D'])).toBe('SMS-B');
    expect(claimAt(floors, 1_020, [])).toBe('SMS-D');
    expect(claimAt(floors, 1_030, [])).toBe('SMS-D');
  });

  it('reads the whole queue again a second after the last time, and may then move the floor down', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-M']);
    expect(claimAt(floors, 1_000 + FULL_SCAN_EVERY_MS - 1, ['SMS-N'])).toBe('SMS-M');
    expect(claimAt(floors, 1_000 + FULL_SCAN_EVERY_MS, ['SMS-A'])).toBe('');
    expect(claimAt(floors, 1_000 + FULL_SCAN_EVERY_MS + 1, [])).toBe('SMS-A');
  });

  it('reads the whole queue when a message this instance put back is due: a retry at its time, a release at once', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-M']);
    floors.applied([
      { kind: 'requeue', ...owned(1_010), nextAttemptAt: 1_300, code: 'x', text: 'y', maybeSent: false },
    ]);
    expect(claimAt(floors, 1_299, [])).toBe('SMS-M');
    expect(claimAt(floors, 1_300, ['SMS-A'])).toBe('');
    floors.applied([{ kind: 'released', ...owned(1_310) }]);
    expect(claimAt(floors, 1_320, [])).toBe('');
    floors.requeued(1_400);
    expect(claimAt(floors, 1_400, [])).toBe('');
    expect(claimAt(floors, 1_401, [])).toBe('SMS-A');
  });

  it('keeps a put-back message due when it was recorded while a full read was under way', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-M']);
    floors.applied([{ kind: 'released', ...owned(1_000) }]);
    const floor = floors.floorFor(request(1_010));
    expect(floor).toBe('');
    // The release commits while that read runs: the read may not have seen it.
    floors.applied([{ kind: 'released', ...owned(1_015) }]);
    floors.claimed(request(1_010), floor, taken());
    expect(claimAt(floors, 1_020, [])).toBe('');
  });

  it('lowers every floor to the lowest id this instance just committed', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-M'], 'one');
    claimAt(floors, 1_000, ['SMS-C'], 'two');
    floors.inserted(['SMS-K', 'SMS-F', 'SMS-Q']);
    expect(claimAt(floors, 1_010, [], 'one')).toBe('SMS-F');
    expect(claimAt(floors, 1_010, [], 'two')).toBe('SMS-C');
    floors.inserted([]);
    expect(claimAt(floors, 1_020, [], 'one')).toBe('SMS-F');
  });

  it('keeps the floor below what was committed while a claim ran', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-C']);
    const floor = floors.floorFor(request(1_010));
    expect(floor).toBe('SMS-C');
    // Committed while that claim runs, which then takes later messages only.
    floors.inserted(['SMS-E']);
    floors.claimed(request(1_010), floor, taken('SMS-G', 'SMS-H'));
    expect(claimAt(floors, 1_020, [])).toBe('SMS-E');
    // Once a claim has begun after it, the floor moves up again.
    expect(claimAt(floors, 1_030, [])).toBe('SMS-E');
    expect(claimAt(floors, 1_040, ['SMS-K'])).toBe('SMS-E');
    expect(claimAt(floors, 1_050, [])).toBe('SMS-K');
  });

  it('reads the whole queue when the clock stepped back, rather than wait for it to catch up', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 10_000, ['SMS-M']);
    expect(claimAt(floors, 10_500, [])).toBe('SMS-M');
    expect(claimAt(floors, 5_000, [])).toBe('');
    expect(claimAt(floors, 5_100, [])).toBe('SMS-M');
  });

  it('keeps a floor per lane', () => {
    const floors = new ClaimFloors();
    claimAt(floors, 1_000, ['SMS-M'], 'one');
    expect(claimAt(floors, 1_001, ['SMS-B'], 'two')).toBe('');
    expect(claimAt(floors, 1_002, [], 'one')).toBe('SMS-M');
    expect(claimAt(floors, 1_003, [], 'two')).toBe('SMS-B');
  });
});
