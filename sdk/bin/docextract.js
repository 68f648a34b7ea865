#!/usr/bin/env node
// The `docextract` command. A committed file, so that npm links the command when it installs the repository: npm
// links no bin whose file is missing, and sdk/dist/ is only built afterwards (postinstall). It runs the built CLI.
import '../dist/cli.js';
