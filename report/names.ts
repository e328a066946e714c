/**
 * The reporters a command's `--reporter` can name — one vocabulary for `smskit conformance` and
 * `smskit replay`, which `smskit diff` shares but for html, plus its markdown — and the table
 * type each report kind fills with its own render functions, so a name without a renderer is a
 * type error rather than a case a switch forgot.
 */
export type ReporterName = 'pretty' | 'json' | 'junit' | 'html';

export const REPORTERS: readonly ReporterName[] = ['pretty', 'json', 'junit', 'html'];

/**
 * One render function per reporter name. `N` lets a report kind keep its own set of names (the
 * contract diff's pretty, json, markdown and junit) while sharing the shape; `C` is what every
 * renderer of the kind reads beside the report (the diff's --fail-on gate), none by default.
 */
export type Renderers<R, N extends string = ReporterName, C extends readonly unknown[] = []> = Readonly<
  Record<N, (report: R, ...context: C) => string>
>;
