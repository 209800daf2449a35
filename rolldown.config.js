// The `contacts` binary as a bundle: a command loads a few chunks instead of some 170 modules
// (zod alone is 95); about 60 ms off a `contacts get` (bench/README.md, startup.js).
// Input is tsc's output, so the bundle runs exactly the code the library ships; each command's
// lazy import stays a chunk of its own. Not minified and without source maps: a `--debug` stack
// trace names a chunk (the same name in every build) whose code reads as tsc wrote it, each
// module under a `// dist/...` line. The library entries (`dist/index.js`, `dist/mock/`) are
// not bundled.
import { defineConfig } from 'rolldown';

/**
 * Requires that only a rare path needs, made lazy in the bundle: each loads Node built-ins that
 * a `contacts get` otherwise pays for at start (together about 8 ms, bench/README.md).
 * - undici's HTTP/2 client (`node:http2`, with `node:tls` and `node:crypto` behind it) runs only
 *   when a server negotiates h2, which the client never offers (`allowH2` is off);
 * - commander's `node:child_process` runs only for executable subcommands, which we have none of.
 * The build fails when a dependency no longer has the line, so an upgrade cannot drop a patch
 * unnoticed.
 */
const LAZY_REQUIRES = [
  {
    file: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    from: "const connectH2 = require('./client-h2.js')",
    to: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
    // Only `connectH2(...)` calls: any other use of the function would need the module itself.
    uses: /connectH2(?!\s*=|\()/,
  },
  {
    file: /[\\/]commander[\\/]lib[\\/]command\.js$/,
    from: "const childProcess = require('node:child_process');",
    to: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
    // The stand-in has `spawn` only: any other child_process function must fail the build.
    uses: /childProcess\.(?!spawn\()/,
  },
];

/** With `strict` (the binary's build), a patch that matched no module fails the build. */
export function lazyRequires({ strict = true } = {}) {
  const applied = new Set();
  return {
    name: 'lazy-requires',
    buildStart() {
      applied.clear();
    },
    transform(code, id) {
      const patch = LAZY_REQUIRES.find((p) => p.file.test(id));
      if (!patch) return null;
      if (!code.includes(patch.from)) {
        throw new Error(`${id} no longer has \`${patch.from}\`: update LAZY_REQUIRES in rolldown.config.js`);
      }
      if (patch.uses.test(code.replace(patch.from, ''))) {
        throw new Error(`${id} uses more than the lazy stand-in has (${patch.uses}): update LAZY_REQUIRES`);
      }
      applied.add(patch);
      return code.replace(patch.from, patch.to);
    },
    buildEnd(error) {
      const missed = LAZY_REQUIRES.filter((p) => !applied.has(p));
      if (strict && !error && missed.length > 0) {
        throw new Error(
          `No module matched ${missed.map((p) => p.file).join(', ')}: update LAZY_REQUIRES in rolldown.config.js`,
        );
      }
    },
  };
}

export default defineConfig({
  input: { contacts: 'dist/cli/main.js' },
  platform: 'node',
  plugins: [lazyRequires()],
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
