/** What every case builder of one (binding, operation) needs: the plan, the path, the bound inputs. */
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import type { OperationPlan } from './contract.js';
import type { ParamValues } from './requests.js';
import { TEXT_VARIANTS } from './variants.js';

/** Shared per-operation facts the case builders need. */
export interface CaseContext {
  readonly descriptor: ServiceDescriptor;
  readonly plan: OperationPlan;
  readonly basePath: string;
  readonly bound: ReadonlyMap<string, string>;
  readonly maxBodyBytes: number;
  /** `<Operation>/<binding>` */
  readonly prefix: string;
}

/** The parameter values for a text variant: bound inputs, and the text in every free parameter. */
export function valuesFor(ctx: CaseContext, text: string): ParamValues {
  return ctx.plan.params.map((p) => [p.name, ctx.bound.get(p.name) ?? text] as const);
}

export function plainValues(ctx: CaseContext): ParamValues {
  return valuesFor(ctx, TEXT_VARIANTS[0]!.text);
}

