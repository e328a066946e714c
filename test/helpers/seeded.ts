/** mulberry32: a small seeded generator (low bits as random as high ones), so a failing run can be repeated. */
export function seededUint32(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The same sequence as numbers in [0, 1), like Math.random. */
export function seededFloat(start: number): () => number {
  const next = seededUint32(start);
  return () => next() / 4294967296;
}
