/**
 * Plans a whole model once: the schema plan (shared by every service of the document) and
 * one service plan per wsdl:service, in document order.
 */
import type { WsdlModel } from '../model/index.js';
import { refuse } from '../errors.js';
import { TS_RESERVED_WORDS, serviceIdentifiers, toTypeIdentifier } from '../naming.js';
import { planSchema, type SchemaPlan } from './schema.js';
import { planService, uniqueFolders, type ServicePlan } from './service.js';

/** Names the generated modules import or declare besides the schema types. */
const RUNTIME_NAMES: readonly string[] = [
  'XmlElement',
  'ServiceDescriptor',
  'ServiceClient',
  'ClientOptions',
  'CallOptions',
  'RequestContext',
  'ServerOptions',
  'OperationHandler',
  'createRequestListener',
];

export interface ModelPlan {
  readonly schema: SchemaPlan;
  readonly services: readonly ServicePlan[];
}

function reservedTypeNames(model: WsdlModel): string[] {
  const perService = model.services.flatMap((s) => Object.values(serviceIdentifiers(toTypeIdentifier(s.name.local))));
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
  const first = plan.services.flatMap((s) => s.warnings)[0];
  if (first !== undefined)
    refuse('UNSUPPORTED_CONSTRUCT', `no operation can be generated: ${first.message}`, first.source);
}
