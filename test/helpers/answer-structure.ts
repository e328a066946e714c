/**
 * The comparable outline of an HTTP answer, for differential tests against genuine ASMX. It is
 * product code now (migrate/outline.ts, what `smskit replay` compares); the tests keep importing
 * it from here.
 */
export { type Answer, outline, type TextNormaliser } from '../../migrate/outline.js';
