/**
 * Descriptor items -> where the model says they are declared (file:line) and what their
 * documentation says. The descriptor keeps wire facts only; the model keeps `source` and
 * `documentation` on every declaration, and the keys of both agree (contract/plan/schema.ts):
 * a named type is `{ns}local`, a global element's anonymous type `element:{ns}local`, a local
 * element's anonymous type `<parent key>/<local>` (`[n]` for the n-th child of that name).
 *
 * Without a model (a descriptor read from generated code) every lookup answers undefined.
 */
import { clark, type BindingOperation, type ComplexType, type ElementDecl, type WsdlModel } from '../model/index.js';
import { elementParticles } from '../model/particles.js';
import type { NameDescriptor } from '../../runtime/descriptor.js';
import type { Location } from './types.js';

export interface Declared {
  readonly source?: Location;
  readonly documentation?: string;
}

const NOTHING: Declared = {};

export class Locator {
  private readonly types = new Map<string, ComplexType | undefined>();

  constructor(readonly model: WsdlModel | undefined) {}

  service(name: string): Declared {
    return this.model?.services.find((s) => s.name.local === name) ?? NOTHING;
  }

  binding(name: string): Declared {
    return this.model?.bindings.find((b) => b.name.local === name) ?? NOTHING;
  }

  /** The port of a service that uses the binding. */
  port(service: string, binding: string): Declared {
    return (
      this.model?.services.find((s) => s.name.local === service)?.ports.find((p) => p.binding.local === binding) ??
      NOTHING
    );
  }

  /** A binding operation (documentation falls back to the portType operation's). */
  operation(binding: string, name: string, method: string): Declared {
    const op = this.bindingOperation(binding, name, method);
    if (op === undefined) return NOTHING;
    const documentation = op.documentation ?? op.portTypeOperation.documentation;
    return documentation === undefined ? { source: op.source } : { source: op.source, documentation };
  }

  /** The portType operation's declared faults (undefined without a model). */
  faults(binding: string, name: string, method: string): readonly string[] | undefined {
    return this.bindingOperation(binding, name, method)?.portTypeOperation.faults.map((f) => f.name);
  }

  private bindingOperation(binding: string, name: string, method: string): BindingOperation | undefined {
    const ops =
      this.model?.bindings.find((b) => b.name.local === binding)?.operations.filter((o) => o.name === name) ?? [];
    // ASMX overloads share the operation name; the method is the message name of the others.
    return ops.length <= 1
      ? ops[0]
      : (ops.find((o) => o.inputName === method) ?? ops.find((o) => o.inputName === undefined) ?? ops[0]);
  }

  element(key: string): Declared {
    return this.model?.schema.elements[key] ?? NOTHING;
  }

  type(key: string): Declared {
    return this.complexType(key) ?? NOTHING;
  }

  /** A member of a complex type (its own or inherited), by wire name. */
  field(typeKey: string, name: NameDescriptor): Declared {
    const decl = this.findParticle(typeKey, (p) => p.name.local === name.local && p.name.ns === name.ns);
    return decl ?? this.type(typeKey);
  }

  attribute(typeKey: string, name: NameDescriptor): Declared {
    for (let type = this.complexType(typeKey); type !== undefined; type = this.baseOf(type)) {
      const found = type.attributes.find((a) => a.name.local === name.local && a.name.ns === name.ns);
      if (found !== undefined) return found;
    }
    return this.type(typeKey);
  }

  /**
   * The named simple type a member (or, without `name`, a global element) is declared with:
   * enumerations and facets live there, so a change to it is one change however many members use it.
   */
  simpleType(key: string, name?: NameDescriptor): (Declared & { readonly key: string }) | undefined {
    const decl =
      name === undefined
        ? this.model?.schema.elements[key]
        : this.findParticle(key, (p) => p.name.local === name.local && p.name.ns === name.ns);
    if (decl === undefined || decl.type.kind !== 'named') return undefined;
    const typeKey = clark(decl.type.name);
    const type = this.model?.schema.types[typeKey];
    return type?.kind === 'simple'
      ? {
          source: type.source,
          ...(type.documentation === undefined ? {} : { documentation: type.documentation }),
          key: typeKey,
        }
      : undefined;
  }

  private findParticle(typeKey: string, match: (p: ElementDecl) => boolean): ElementDecl | undefined {
    for (let type = this.complexType(typeKey); type !== undefined; type = this.baseOf(type)) {
      const found = elementParticles(type).find(match);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private baseOf(type: ComplexType): ComplexType | undefined {
    if (type.base === undefined) return undefined;
    const base = this.model?.schema.types[clark(type.base.name)];
    return base?.kind === 'complex' ? base : undefined;
  }

  complexType(key: string): ComplexType | undefined {
    if (this.model === undefined) return undefined;
    if (!this.types.has(key)) this.types.set(key, this.resolveType(this.model, key));
    return this.types.get(key);
  }

  private resolveType(model: WsdlModel, key: string): ComplexType | undefined {
    const element = key.startsWith('element:');
    const bare = element ? key.slice('element:'.length) : key;
    const close = bare.indexOf('}');
    if (!bare.startsWith('{') || close < 0) return undefined;
    const [root, ...path] = bare.slice(close + 1).split('/');
    const rootKey = `${bare.slice(0, close + 1)}${root}`;
    let type: ComplexType | undefined;
    if (element) {
      const decl = model.schema.elements[rootKey];
      type = decl?.type.kind === 'inline' && decl.type.type.kind === 'complex' ? decl.type.type : undefined;
    } else {
      const named = model.schema.types[rootKey];
      type = named?.kind === 'complex' ? named : undefined;
    }
    for (const step of path) type = type === undefined ? undefined : nestedType(type, step);
    return type;
  }
}

/** `child` or `child[n]`: the n-th local element of that name with an anonymous complex type. */
function nestedType(parent: ComplexType, step: string): ComplexType | undefined {
  const match = /^(.*?)(?:\[(\d+)\])?$/.exec(step)!;
  const local = match[1]!;
  const nth = match[2] === undefined ? 1 : Number(match[2]);
  const candidates = elementParticles(parent).filter(
    (p) => p.name.local === local && p.type.kind === 'inline' && p.type.type.kind === 'complex',
  );
  const found = candidates[nth - 1];
  return found?.type.kind === 'inline' && found.type.type.kind === 'complex' ? found.type.type : undefined;
}
