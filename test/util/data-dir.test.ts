// Where the tool keeps what it makes for later: read from the environment it is given, never the
// process's, so a test or a CI job that sets its own directories never writes into the user's.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDir, undoDir } from '../../src/util/data-dir.js';

describe('dataDir', () => {
  it('is CONTACTS_DATA_DIR, else data/ in CONTACTS_CONFIG_DIR, else the platform data directory', () => {
    expect(dataDir({ CONTACTS_DATA_DIR: 'rel/data', CONTACTS_CONFIG_DIR: '/c' })).toBe(resolve('rel/data'));
    expect(dataDir({ CONTACTS_CONFIG_DIR: '/c' })).toBe(join('/c', 'data'));
    expect(undoDir({ CONTACTS_CONFIG_DIR: '/c' })).toBe(join('/c', 'data', 'undo'));
    if (process.platform === 'linux') {
      expect(dataDir({ HOME: '/home/ann' })).toBe('/home/ann/.local/share/contacts-cli-nodejs');
      expect(dataDir({ HOME: '/home/ann', XDG_DATA_HOME: '/xdg' })).toBe('/xdg/contacts-cli-nodejs');
    }
  });
});
