/**
 * `generate(model, options)`: the whole generated tree as `Map<relativePath, text>`.
 * Never touches the disk (only the CLI writes, atomically). Layout:
 * `<service-folder>/{types,descriptor,client,server,index}.ts` per wsdl:service, plus `index.ts`.
 */
import { createHash } from 'node:crypto';
import { describeService } from '../contract/descriptor/index.js';
import { clientStatements } from './emit/client-file.js';
import { descriptorStatements } from './emit/descriptor-file.js';
import { refuse } from '../contract/errors.js';
import { rootIndexStatements, serviceIndexStatements } from './emit/index-file.js';
import { planModel, type ModelPlan } from '../contract/plan/index.js';
import type { ServicePlan } from '../contract/plan/service.js';
import { printFile, provenanceHeader } from './emit/project.js';
import { DEFAULT_RUNTIME_IMPORT } from './emit/runtime-imports.js';
import { serverStatements } from './emit/server-file.js';
import { typesStatements } from './emit/types-file.js';
import type { ModelWarning, WsdlModel } from '../contract/model/index.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';

export interface GenerateOptions {
  /** Module specifier generated code imports the runtime from (default 'smskit/runtime'). */
  readonly runtimeImport?: string;
  /** The toolkit version, for the provenance header. */
  readonly toolVersion: string;
  /**
   * How the header names the WSDL (default: the model's file as given to the parser). The CLI
   * passes the path relative to the output folder, or the URL, so the header does not depend
   * on the working directory or on how the path was typed.
   */
  readonly source?: string;
  /** How the header names the imported documents (default: the model's `imports` as read). */
  readonly imports?: readonly string[];
  /** Told of every operation left out of a binding (or of the service), with its WSDL line. */
  readonly onWarning?: (warning: ModelWarning) => void;
}

/**
 * Turns one file's statement structures into text; `printFile` unless a test compares printers.
 * @internal Left out of the published declarations (with generateWith), which would otherwise
 * make users' type checks need ts-morph, a development dependency.
 */
export type FilePrinter = (header: string, statements: Parameters<typeof printFile>[1]) => string;

export function generate(model: WsdlModel, options: GenerateOptions): Map<string, string> {
  return generateWith(model, options, printFile).files;
}

/** The generated tree and each service's descriptor, from one planning of the model (the CLI's `--check` reuses them). */
export interface GeneratedTree {
  readonly files: Map<string, string>;
  readonly descriptors: readonly ServiceDescriptor[];
}

/** One WSDL of a tree made from several: its model and how headers name it (see GenerateOptions). */
export interface TreeContract {
  readonly model: WsdlModel;
  readonly source?: string;
  readonly imports?: readonly string[];
}

export function generateTree(model: WsdlModel, options: GenerateOptions): GeneratedTree {
  return generateWith(model, options, printFile);
}

/**
 * `generate` with the printer as a parameter: the differential test prints the same structures
 * through ts-morph's own Project and formatter and requires identical bytes.
 * @internal
 */
export function generateWith(model: WsdlModel, options: GenerateOptions, print: FilePrinter): GeneratedTree {
  const { files, descriptors } = planAndPrint(model, options, print);
  return { files, descriptors };
}

/**
 * One tree from several WSDLs (the SMS contract and the status contract): each service folder
 * exactly as its own WSDL generates it (its header names its WSDL, so adding a contract never
 * changes another's files), and one top-level `index.ts` exporting every service as a namespace.
 * Two services with the same folder are refused: one would silently replace the other.
 */
export function generateTrees(contracts: readonly TreeContract[], options: GenerateOptions): GeneratedTree {
  if (contracts.length === 1) {
    const [only] = contracts;
    return generateTree(only!.model, withSource(options, only!));
  }
  const files = new Map<string, string>();
  const descriptors: ServiceDescriptor[] = [];
  const services: ServicePlan[] = [];
  const hashes: string[] = [];
  const folders = new Map<string, string>();
  for (const contract of contracts) {
    const part = planAndPrint(contract.model, withSource(options, contract), printFile);
    for (const service of part.services) {
      const earlier = folders.get(service.folder);
      if (earlier !== undefined)
        refuse(
          'UNSUPPORTED_CONSTRUCT',
          `service ${service.ident} would be generated into ${service.folder}/, which ${earlier} already fills: give the services different names`,
          { file: contract.model.file, line: 1 },
        );
      folders.set(service.folder, contract.source ?? contract.model.file);
    }
    for (const [path, text] of part.files) if (path !== 'index.ts') files.set(path, text);
    descriptors.push(...part.descriptors);
    services.push(...part.services);
    hashes.push(part.contractHash);
  }
  const header = provenanceHeader({
    toolVersion: options.toolVersion,
    source: contracts.map((c) => c.source ?? c.model.file).join(', '),
    contractHash: createHash('sha256').update(hashes.join('\n')).digest('hex'),
    options: { runtimeImport: options.runtimeImport ?? DEFAULT_RUNTIME_IMPORT },
  });
  files.set('index.ts', printFile(header, rootIndexStatements(services)));
  return { files, descriptors };
}

function withSource(options: GenerateOptions, contract: TreeContract): GenerateOptions {
  const { source: _source, imports: _imports, ...rest } = options;
  return {
    ...rest,
    ...(contract.source === undefined ? {} : { source: contract.source }),
    ...(contract.imports === undefined ? {} : { imports: contract.imports }),
  };
}

interface PrintedTree extends GeneratedTree {
  readonly services: readonly ServicePlan[];
  readonly contractHash: string;
}

function planAndPrint(model: WsdlModel, options: GenerateOptions, print: FilePrinter): PrintedTree {
  const runtimeImport = options.runtimeImport ?? DEFAULT_RUNTIME_IMPORT;
  if (model.services.length === 0)
    refuse('UNSUPPORTED_CONSTRUCT', 'the WSDL declares no wsdl:service: nothing to generate', {
      file: model.file,
      line: 1,
    });
  const plan = planModel(model);
  for (const warning of plan.schema.warnings) options.onWarning?.(warning);
  for (const service of plan.services) for (const warning of service.warnings) options.onWarning?.(warning);
  const descriptors = plan.services.map((service) => describeService(model, plan.schema, service));
  const contractHash = contractHashOf(plan, descriptors);
  const header = provenanceHeader({
    toolVersion: options.toolVersion,
    source: options.source ?? model.file,
    ...((options.imports ?? model.imports) === undefined ? {} : { imports: options.imports ?? model.imports }),
    contractHash,
    options: { runtimeImport },
  });
  const files = new Map<string, string>();
  for (const [i, service] of plan.services.entries()) {
    const descriptor = descriptors[i]!;
    const put = (name: string, statements: Parameters<typeof printFile>[1]): void => {
      files.set(`${service.folder}/${name}`, print(header, statements));
    };
    put('types.ts', typesStatements(plan.schema, service, runtimeImport));
    put('descriptor.ts', descriptorStatements(descriptor, service, runtimeImport));
    put('client.ts', clientStatements(plan.schema, service, runtimeImport));
    put('server.ts', serverStatements(plan.schema, service, runtimeImport));
    put('index.ts', serviceIndexStatements());
  }
  files.set('index.ts', print(header, rootIndexStatements(plan.services)));
  return { files, descriptors, services: plan.services, contractHash };
}

/**
 * sha256 of what the generated code is made from: each service's descriptor (wire names,
 * types, bindings, addresses, documentation; descriptor.ts prints it whole) and the TypeScript
 * names planned for the schema types and the service. No file names, line numbers or WSDL
 * bytes, so reformatting or commenting the WSDL keeps it, and any change to it changes the code.
 */
function contractHashOf(plan: ModelPlan, descriptors: readonly ServiceDescriptor[]): string {
  const fingerprint = {
    types: plan.schema.types.map((t) => [t.key, t.tsName, t.kind === 'complex' ? (t.unionName ?? null) : null]),
    services: plan.services.map((s, i) => ({ folder: s.folder, names: s.names, descriptor: descriptors[i] })),
  };
  return createHash('sha256').update(JSON.stringify(fingerprint)).digest('hex');
}
