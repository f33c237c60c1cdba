// Package daytona is the Daytona backend: a Go client for the Daytona API
// and the sandbox toolbox API as the official SDK uses them (Client), and
// machines that are Daytona sandboxes (Factory, Machine).
//
// A sandbox is created from a snapshot named after the image and the
// resources (created on first use and kept for reuse); commands go through
// the toolbox's process/execute, files through its bulk upload and
// download. Daytona merges a command's stdout and stderr and has no
// process-group control, so each command runs under a small shell wrapper
// inside the sandbox: it records the command's process group, keeps the
// streams in private files and prints them back framed in base64; a timeout
// or a cancellation stops the recorded group with a second exec and keeps
// the sandbox. OpenProcess streams: the command runs as an asynchronous
// command of a session of its own, its input goes by send-input and its
// output comes over the followed log (a websocket), both as base64 lines
// of a wrapper (shwrap.ProcessScript).
//
// lib/remote/daytonad serves the same API on loopback with shellbox
// machines as sandboxes; the tests run this client against it.
package daytona
