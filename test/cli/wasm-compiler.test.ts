/**
 * Which commands compile undici's WebAssembly HTTP parser with Liftoff only (bin/wasm-compiler.ts):
 * the short-lived ones, not the servers that parse requests for days.
 */
import { describe, expect, it } from 'vitest';
import { wasmFlagsFor } from '../../bin/wasm-compiler.js';
import { commandName } from '../../bin/commands/command.js';
import { commands } from '../../bin/commands/index.js';

const names = commands.map(commandName);

describe('the WebAssembly compiler each command asks V8 for', () => {
  it.each(['serve', 'record'])('%s keeps the optimizing tier', (command) => {
    expect(wasmFlagsFor(command)).toEqual([]);
  });

  it('every other command, and none named, compiles with Liftoff only', () => {
    const shortLived = names.filter((name) => name !== 'serve' && name !== 'record');
    expect(shortLived).toEqual(expect.arrayContaining(['send', 'call', 'conformance', 'fuzz', 'status', 'replay']));
    for (const command of [...shortLived, undefined]) expect(wasmFlagsFor(command)).toEqual(['--liftoff-only']);
  });

  it('names only commands that exist', () => {
    expect(names).toEqual(expect.arrayContaining(['serve', 'record']));
  });
});
