/**
 * Where a lane's next claim starts looking in the queue, on PostgreSQL.
 *
 * A message that leaves `queued` leaves a dead entry in the queue's index (`outbox_queued`, in
 * id order) until a VACUUM removes it, and autovacuum looks at a table once a minute at most: a
 * claim that reads the index from its first entry walks past every message claimed since, which
 * at 2,000 msg/s is thousands of entries per claim and grows with the traffic. So each lane
 * remembers the lowest id its last claim took, its floor, and the next claim looks from there.
 *
 * Below the floor a message can be queued again: one this instance put back (a retry, a release
 * at shutdown, a lease taken back), or one another instance accepted with a lower id and
 * committed later. The first kind makes the lane's next claim due at the message's attempt time
 * to read the whole queue; for the second, and for retries another instance scheduled, every
 * lane reads the whole queue at least once a second (FULL_SCAN_EVERY_MS). No message is left
 * behind; one can wait up to a second longer than its attempt time.
 */
import type { ClaimedMessage, ClaimRequest, DeliveryChange } from '../delivery.js';

/** The longest a message queued below a lane's floor waits past its attempt time. */
export const FULL_SCAN_EVERY_MS = 1_000;

interface LaneFloor {
  /** The lowest id the lane's last claim took ('' before any). */
  id: string;
  /** When the lane next reads the queue from its start. */
  fullScanAt: number;
  /** A message was put back since the lane's last full scan began (that scan may not have seen it). */
  putBack: boolean;
}

export class ClaimFloors {
  private readonly lanes = new Map<string, LaneFloor>();

  /** The id the claim starts from: '' (the whole queue) when a full scan is due. */
  floorFor(request: ClaimRequest): string {
    const key = laneKey(request);
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { id: '', fullScanAt: 0, putBack: false };
      this.lanes.set(key, lane);
    }
    if (request.now < lane.fullScanAt) return lane.id;
    lane.putBack = false;
    return '';
  }

  /** Records what a claim from `floor` took (in id order). */
  claimed(request: ClaimRequest, floor: string, taken: readonly ClaimedMessage[]): void {
    const lane = this.lanes.get(laneKey(request));
    if (lane === undefined) return;
    if (floor === '' && !lane.putBack) lane.fullScanAt = request.now + FULL_SCAN_EVERY_MS;
    // From a floor, what a claim takes is at or above it; from the start it may be below.
    const first = taken[0];
    if (first !== undefined) lane.id = first.id;
  }

  /** After this instance recorded `changes`: a message put back is looked for from the start when due. */
  applied(changes: readonly DeliveryChange[]): void {
    for (const change of changes) {
      if (change.kind === 'requeue') this.fullScanBy(change.nextAttemptAt);
      else if (change.kind === 'released') this.fullScanBy(change.at);
    }
  }

  /** After this instance took back stale leases: their messages are queued again, due now. */
  requeued(now: number): void {
    this.fullScanBy(now);
  }

  private fullScanBy(at: number): void {
    for (const lane of this.lanes.values()) {
      lane.fullScanAt = Math.min(lane.fullScanAt, at);
      lane.putBack = true;
    }
  }
}

/** A lane: its route and the carriers it takes. */
function laneKey(request: ClaimRequest): string {
  return `${request.route}\u0000${JSON.stringify(request.carriers)}`;
}
