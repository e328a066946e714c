/**
 * The help pages' modes, in a module of their own (no imports) so that the CLI can offer them as
 * `smskit serve --help-pages` choices without loading the runtime.
 *
 * 'local-test-form' (the default, ASMX's HttpPostLocalhost): pages for every client, the test
 * form only for requests from this machine; 'test-form': the form for every client; 'off': none.
 */
export type HelpPagesMode = 'local-test-form' | 'test-form' | 'off';
export const HELP_PAGES_MODES: readonly HelpPagesMode[] = ['local-test-form', 'test-form', 'off'];
