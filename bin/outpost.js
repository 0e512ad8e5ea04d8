#!/usr/bin/env node
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(entry)) {
  process.stderr.write('outpost: not built yet; run `npm run build` first\n');
  process.exit(1);
}
require(entry);
