'use strict';
// scripts/bundle.js -- run by `npm pack` (prepack): builds the extension
// with the repository's Makefile (`make ext`) and copies the loadable
// object into lib/, so the packed package carries it.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const { getLoadablePath } = require('..');

const dest = getLoadablePath();
const root = path.join(__dirname, '..', '..', '..');

if (!fs.existsSync(path.join(root, 'Makefile'))) {
  console.error(`sqlite-triggers: ${root} is not a sqlite-triggers checkout`);
  process.exit(1);
}
execFileSync('make', ['-s', '-C', root, 'ext'], { stdio: 'inherit' });
fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.copyFileSync(path.join(root, 'build', path.basename(dest)), dest);
