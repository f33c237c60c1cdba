// Package daytonad serves the Daytona API and the sandbox toolbox API, as
// the official SDKs call them, with shellbox machines as sandboxes. It lets
// the official clients (and lib/backends/daytona) run against a host of
// the user's own, and it is what the tests check those clients against,
// since the hosted service is out of reach from CI.
//
// Sandboxes are created synchronously (a created sandbox is "started");
// snapshots record an image name and resources and are active at once; a
// sandbox's image name becomes a machine source through Config.Source.
// Commands run as the toolbox daemon runs them: the command text is piped
// to the sandbox's shell (zsh or bash when /etc/shells lists them, else
// $SHELL, else sh), stdout and stderr merged, a positive timeout ending the
// command with 408. Sessions run each command on its own (no shell state
// carries over). Network allow lists are refused: a shellbox machine has
// the network or not.
package daytonad
