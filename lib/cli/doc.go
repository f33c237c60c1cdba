// Package cli is the shellbox command for people: doctor (which backends
// work on this host, and why not), run (one command in a fresh machine),
// shell (an interactive shell in one), bench (headline latencies) and
// stage (an image into a QEMU disk, also with marin-shellbox's
// shellbox-stage flags).
//
// Exit codes: doctor and bench exit 0 when every backend asked about
// works, 1 when some do not and 2 on a usage error. run passes the
// command's exit status through, and like coreutils timeout exits 124 when
// --timeout expired and 125 when shellbox itself failed (usage errors
// included, so they cannot be mistaken for the command's); a command
// killed by a signal gives 128+signal, and Ctrl-C closes the machine and
// exits 130. shell exits with the shell's status, or 125. stage exits 0,
// 2 on a usage error, 125 when staging failed and 130 after Ctrl-C.
package cli
