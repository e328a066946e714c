/**
 * Walks over a complex type's own content. The plan numbers nested anonymous types from this
 * order and `smskit diff` finds them again by the same numbers, so both must use this one walk.
 */
import type { ComplexType, ElementDecl, Particle } from './index.js';

/** Every element particle of a complex type's own content (not its base's), in document order. */
export function elementParticles(type: ComplexType): ElementDecl[] {
  const out: ElementDecl[] = [];
  const walk = (particles: readonly Particle[]): void => {
    for (const p of particles) {
      if (p.kind === 'element') out.push(p);
      else if (p.kind !== 'any') walk(p.particles);
    }
  };
  if (type.arrayItem !== undefined) out.push(type.arrayItem);
  else if (type.content !== undefined) walk([type.content]);
  return out;
}
