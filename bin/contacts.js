#!/usr/bin/env node
// The CLI's bundle (rolldown.config.js): one file and a few chunks instead of ~170 modules.
import { main } from '../dist/bin/contacts.js';

await main();
