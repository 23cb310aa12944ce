#!/usr/bin/env node
'use strict';
require('../dist/src/cli/run.js');
