#!/usr/bin/env node
// The CLI's bundle (rolldown.config.js): one file and a few chunks instead of every module.
import { main } from '../dist/bin/contacts.js';

await main();
