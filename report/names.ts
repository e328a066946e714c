/**
 * The reporters a command's `--reporter` can name — one vocabulary for `smskit conformance` and
 * `smskit replay` — and the table type each report kind fills with its own render functions, so
 * a name without a renderer is a type error rather than a case a switch forgot.
 */
export type ReporterName = 'pretty' | 'json' | 'junit' | 'html';

export const REPORTERS: readonly ReporterName[] = ['pretty', 'json', 'junit', 'html'];

/**
 * One render function per reporter name. `N` lets a report kind keep its own set of names (the
 * contract diff's pretty, json, markdown and junit) while sharing the shape.
 */
export type Renderers<R, N extends string = ReporterName> = Readonly<Record<N, (report: R) => string>>;
