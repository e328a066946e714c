/** The doc-run suite (doc-run.ts), first half of the documents: README.md and every other docs/*.md. */
import { defineDocRun } from './doc-run.js';

defineDocRun(0);
