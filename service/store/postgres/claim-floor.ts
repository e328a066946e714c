/**
 * Where a lane's next claim starts looking in the queue, on PostgreSQL.
 *
 * A message that leaves `queued` leaves a dead entry in the queue's indexes until a VACUUM
 * removes it, and autovacuum gets to a table once a minute at most, and to a large outbox only
 * once a fifth of its rows are dead (autovacuum_vacuum_scale_factor): a claim that reads an index
 * from its first queued entry walks past every message claimed since, thousands per claim at
 * 2,000 msg/s and more every second. (A scan marks the dead entries it passes so that later scans
 * skip them, but only those no open transaction can still see and only on index pages no insert
 * has changed meanwhile: under load, few.) So each lane remembers the lowest id its last claim
 * took, its floor, and the next claim looks from there.
 *
 * Below the floor a message can be queued that the lane has not seen:
 * - one this instance accepted and committed after a claim took a later one: each committed
 *   batch lowers every floor to its lowest id before its messages wake the lanes, and a claim
 *   under way meanwhile does not raise the floor above it;
 * - one this instance put back (a retry, a release at shutdown, a lease taken back): the lane's
 *   next claim at or after the earliest such attempt time reads the whole queue;
 * - one another instance accepted or put back (that instance's own lanes see it as above):
 *   every lane reads the whole queue at least once a second (FULL_SCAN_EVERY_MS).
 * No message is left behind; another instance's can wait up to a second past its attempt time
 * (plus the lane's poll interval, when it was idle), should its own instance not send it first.
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
  /** The lowest id this instance committed since the lane's last claim began (that claim may not have seen it). */
  committedSince: string | undefined;
}

export class ClaimFloors {
  private readonly lanes = new Map<string, LaneFloor>();

  /** The id the claim starts from: '' (the whole queue) when a full scan is due. */
  floorFor(request: ClaimRequest): string {
    const key = laneKey(request);
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { id: '', fullScanAt: 0, putBack: false, committedSince: undefined };
      this.lanes.set(key, lane);
    }
    lane.committedSince = undefined;
    // The next full scan is at most a period away: further means the clock stepped back.
    if (request.now < lane.fullScanAt && lane.fullScanAt - request.now <= FULL_SCAN_EVERY_MS) return lane.id;
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
    if (lane.committedSince !== undefined && lane.committedSince < lane.id) lane.id = lane.committedSince;
  }

  /** After this instance recorded `changes`: a message put back is looked for from the start when due. */
  applied(changes: readonly DeliveryChange[]): void {
    for (const change of changes) {
      if (change.kind === 'requeue') this.fullScanBy(change.nextAttemptAt);
      else if (change.kind === 'released') this.fullScanBy(change.at);
    }
  }

  /** After this instance committed new messages: no lane's floor stays above them. */
  inserted(ids: readonly string[]): void {
    let lowest: string | undefined;
    for (const id of ids) if (lowest === undefined || id < lowest) lowest = id;
    if (lowest === undefined) return;
    for (const lane of this.lanes.values()) {
      if (lane.id > lowest) lane.id = lowest;
      if (lane.committedSince === undefined || lowest < lane.committedSince) lane.committedSince = lowest;
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
