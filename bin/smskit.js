#!/usr/bin/env node
// The `smskit` command. The toolkit is written in TypeScript and runs from source through tsx's
// loader, so there is no build step whose output could drift from the source.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
