#!/usr/bin/env node
// The `contacts` binary: tsc's output (dist/cli), its dependencies from node_modules as installed.
import module from 'node:module';

// Node 22.1+ keeps the compiled code of the modules a command loads on disk and reuses it on the
// next run; older Nodes lack the function. It must run before the CLI's modules load.
module.enableCompileCache?.();
const { main } = await import('../dist/cli/main.js');
await main();
