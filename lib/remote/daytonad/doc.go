// Package daytonad serves the Daytona API and the sandbox toolbox API, as
// the official SDKs call them, with shellbox machines as sandboxes. It lets
// the official clients (and lib/backends/daytona) run against a host of
// the user's own, and it is what the tests check those clients against,
// since the hosted service is out of reach from CI.
//
// Sandboxes are created synchronously (a created sandbox is "started");
// snapshots record an image name and resources and are active at once; a
// sandbox's image name becomes a machine source through Config.Source.
// Commands run as the toolbox daemon runs them, by the sandbox's shell (zsh
// or bash when /etc/shells lists them, else $SHELL, else sh), stdout and
// stderr merged, a positive timeout ending the command with 408. One
// difference: the daemon pipes the command text to the shell's stdin; this
// server passes it as the shell's -c argument when it fits one (100 KiB),
// so a command that reads its stdin reads nothing instead of the rest of
// its own text, and a machine backend that keeps a process ready for the
// next command (Docker) starts it without an exec. Sessions run each command on its own (no shell state
// carries over); an asynchronous one runs as a machine process, whose
// input send-input writes and whose log a follower streams while it runs
// (its stderr arrives when it ends, as a process reports it). Network allow lists are refused: a shellbox machine has
// the network or not.
package daytonad
