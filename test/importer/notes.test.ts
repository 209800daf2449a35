// The channel an import's notes go through: held until the import starts, then told as they come.
import { describe, expect, it } from 'vitest';
import { type ImportNote, localTimesNote, NoteChannel } from '../../src/importer/notes.js';

describe('NoteChannel', () => {
  it('holds the notes said before the start for it, then tells each as it is said', () => {
    const told: ImportNote[] = [];
    const channel = new NoteChannel((note) => told.push(note));
    const first: ImportNote = { code: 'rows_skipped', message: 'line 3 repeats the header row: skipped' };
    const second = localTimesNote('Joined', '2024-03-22 17:59');
    channel.say(first);
    expect(told).toEqual([]);
    expect(channel.start()).toEqual([first]);
    channel.say(second);
    expect(told).toEqual([second]);
    // Said once: what was told is not held for a second start.
    expect(channel.start()).toEqual([]);
  });

  it('says a local date-time by its column and example, in words that name no flag', () => {
    expect(localTimesNote('Joined', '2024-03-22 17:59')).toEqual({
      code: 'local_times',
      message: 'Column "Joined" has date-times without a zone (2024-03-22 17:59): they are read as UTC.',
      column: 'Joined',
      example: '2024-03-22 17:59',
    });
  });
});
