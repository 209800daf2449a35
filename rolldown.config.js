// The `contacts` binary as a bundle: a command loads a few chunks instead of every module of
// its dependencies one file at a time, which is most of what a short command spends starting.
// Input is tsc's output, so the bundle runs exactly the code the library ships; each command's
// lazy import stays a chunk of its own. Not minified and without source maps: a `--debug` stack
// trace names a chunk (the same name in every build) whose code reads as tsc wrote it, each
// module under a `// dist/...` line. The library entries (`dist/index.js`, `dist/mock/`) are
// not bundled.
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: { contacts: 'dist/cli/main.js' },
  platform: 'node',
  // libsql loads a native binary from its own package; msw is an optional peer dependency.
  external: ['libsql', 'msw', /^msw\//],
  output: {
    // Two levels below the package root, as dist/client/ is: version.ts reads ../../package.json.
    dir: 'dist/bin',
    cleanDir: true,
    format: 'esm',
    entryFileNames: '[name].js',
    // Names without a hash: a pasted stack trace names the same file in every build.
    chunkFileNames: '[name].js',
  },
});
