// Package shwrap holds the shell scripts that give a remote backend whose
// service only runs a command to its end (Daytona's toolbox, Iris's
// ExecInContainer) what a machine needs: the command in a process group of
// its own whose id is recorded, separate binary-safe stdout and stderr kept
// in files and printed back in base64 up to a limit, and a second script
// that stops the group after a timeout or a cancellation while the sandbox
// stays. The scripts need a POSIX sh with setsid, wc, head, base64 and
// /proc; user switching needs su.
package shwrap
