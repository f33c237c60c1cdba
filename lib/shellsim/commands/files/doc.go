// Package files holds ShellSim's file commands (ls, cp, mv, rm, mkdir,
// rmdir, touch, ln, chmod, chown, chgrp, stat, du, df, find, xargs,
// basename, dirname, realpath, readlink, mktemp, tree, truncate), written
// against the virtual filesystem of package command and behaving like GNU
// coreutils and findutils in the C locale.
package files
