'use strict';
// sqlite-triggers for Node: the extension's loadable object, bundled in
// lib/ (scripts/bundle.js copies it there when the package is packed), and
// load(db) for better-sqlite3 (any connection with loadExtension() and
// prepare().get() works the same way).
const fs = require('fs');
const path = require('path');

const SUFFIX = { darwin: '.dylib', win32: '.dll' }[process.platform] || '.so';

// The bundled object's file (lib/triggers.so, .dylib or .dll). SQLite
// derives the entry point sqlite3_triggers_init from the name.
function getLoadablePath() {
  return path.join(__dirname, 'lib', 'triggers' + SUFFIX);
}

// Load the extension into db and run the install (SELECT trigger_install():
// creates triggers and trigger_runs on first use, upgrades an older schema,
// otherwise changes nothing). Returns trigger_version().
function load(db) {
  const file = getLoadablePath();
  if (!fs.existsSync(file)) {
    throw new Error(`sqlite-triggers: the bundled extension ${file} is ` +
                    'missing (pack the package with npm pack, which runs ' +
                    'scripts/bundle.js)');
  }
  db.loadExtension(file);
  db.prepare('SELECT trigger_install() AS v').get();
  return db.prepare('SELECT trigger_version() AS v').get().v;
}

module.exports = { load, getLoadablePath };
