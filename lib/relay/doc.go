// Package relay lets code inside a machine call a trusted host handler
// over HTTP without network access or credentials in the machine.
//
// Inside the machine a small static program (cmd/shellbox-relay, no
// Python or libc needed) listens on a guest loopback port and turns each
// HTTP request into a frame on its standard output; the host reads the
// frames over one process session (machine.ProcessMachine.OpenProcess),
// calls the handler and writes the response frame to the program's
// standard input. The guest can only reach the handler: it never names a
// host destination, and no header crosses in either direction except the
// response's content type.
//
// A ShellSim machine has no processes or sockets, only virtual HTTP
// routes (RouteMachine): there Start installs a route for the port whose
// answer comes from the handler in-process (Virtual), with the same
// limits, and Close removes it.
//
// # Frames
//
// Both directions carry
//
//	+--------+----------------+------------------+------------------+-------------+------+
//	| type   | id (uint32 BE) | length (uint32)  | head length (u32)| head (JSON) | body |
//	+--------+----------------+------------------+------------------+-------------+------+
//
// where length covers the head length, head and body. Types: 'L' the
// listener is up (guest→host, id 0, head {"addr"}), 'Q' a request
// (guest→host, head {"method","path","query"}), 'C' the client of request
// id went away (guest→host, empty), 'S' the response to request id
// (host→guest, head {"status","content_type"}).
//
// # Limits
//
// Only GET and POST reach the handler (others get 405); request and
// response bodies are at most MaxBody bytes (a larger request gets 413, a
// larger response becomes 502); at most MaxPending requests wait for the
// handler at once (more get 503 at once); a handler error becomes 502
// with a fixed body. The host enforces every limit itself: the program in
// the guest is as untrusted as the guest.
package relay
