// Every command's declaration in one module graph, in the order help lists them: for help,
// completion and a word no command has (program.ts declares a command named alone by itself).
import { apiCommand } from './api-command.js';
import { attrsCommand } from './attrs-command.js';
import { authCommand } from './auth-command.js';
import { completionCommand } from './completion-command.js';
import { configCommand } from './config-command.js';
import { contactCommands } from './contacts-command.js';
import { exportCommand } from './export-command.js';
import { importCommand } from './import-command.js';
import { serveCommand } from './serve-command.js';
import { templateCommand } from './template-command.js';
import { undoCommand } from './undo-command.js';

export const ALL_COMMANDS = [
  contactCommands,
  importCommand,
  undoCommand,
  templateCommand,
  exportCommand,
  attrsCommand,
  authCommand,
  configCommand,
  serveCommand,
  apiCommand,
  completionCommand,
];
