/** The doc-run suite (doc-run.ts), fourth of four parts of the documents, in a consumer project of its own. */
import { defineDocRun } from './doc-run.js';

defineDocRun(3);
