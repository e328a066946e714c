/**
 * Plans a whole model once: the schema plan (shared by every service of the document) and
 * one service plan per wsdl:service, in document order.
 */
import type { WsdlModel } from '../model/index.js';
import { refuse } from '../errors.js';
import { RUNTIME_NAMES, TS_RESERVED_WORDS, serviceIdent, serviceIdentifiers } from '../naming.js';
import { planSchema, type SchemaPlan } from './schema.js';
import { planService, uniqueFolders, type ServicePlan } from './service.js';

export interface ModelPlan {
  readonly schema: SchemaPlan;
  readonly services: readonly ServicePlan[];
}

function reservedTypeNames(model: WsdlModel): string[] {
  const perService = model.services.flatMap((s) => Object.values(serviceIdentifiers(serviceIdent(s.name.local))));
  return [...TS_RESERVED_WORDS, ...RUNTIME_NAMES, ...perService];
}

export function planModel(model: WsdlModel): ModelPlan {
  const schema = planSchema(model, reservedTypeNames(model));
  const folders = uniqueFolders(model.services);
  const services = model.services.map((service, i) => planService(model, service, schema, folders[i]!));
  const plan = { schema, services };
  refuseWhenNothingIsLeft(plan);
  return plan;
}

/**
 * Operations a binding cannot carry are left out one by one; the file as a whole is refused
 * only when that leaves no operation anywhere, with the first reason.
 */
function refuseWhenNothingIsLeft(plan: ModelPlan): void {
  if (plan.services.some((s) => s.operations.length > 0)) return;
  // A port with no binding to carry leaves its service nothing to plan: its own refusal is the cause.
  const portRefusal = plan.services.find((s) => s.bindings.length === 0)?.portRefusals[0];
  if (portRefusal !== undefined) throw portRefusal;
  // A definition the parser left out is the real cause: refuse with its own code and location.
  const cause = plan.services
    .flatMap((s) => s.bindings.flatMap((b) => b.omitted))
    .find((o) => o.cause?.code.startsWith('WSDL_'))?.cause;
  if (cause !== undefined) throw cause;
  const first = plan.services.flatMap((s) => s.warnings)[0];
  if (first !== undefined)
    refuse('UNSUPPORTED_CONSTRUCT', `no operation can be generated: ${first.message}`, first.source);
}
