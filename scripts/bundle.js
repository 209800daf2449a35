// Build step: bundles the CLI (rolldown.config.js) through rolldown's API, which, unlike its
// command line, does not list every chunk's size: a build says nothing unless something is wrong.
import { build } from 'rolldown';
import config from '../rolldown.config.js';

await build({ logLevel: 'warn', ...config });
