// Package execd is the command server that runs inside a local sandbox
// (shellbox-sandboxd) and the host-side client that talks to it.
//
// # Transport
//
// The host creates a listening unix socket in a private (0700) host
// directory that is not visible inside the sandbox and hands the listening
// descriptor to the helper as an inherited file descriptor. A connection
// carries one operation at a time: once an operation has ended cleanly
// (exit or ok frame) the host may send the next request on the same
// connection, or close it; after a failure frame the helper closes it.
// Stdin frames that reach the helper after their exec ended are dropped.
// The local backend's client keeps a few connections open this way, which
// saves every command a connect and an accept; a client opening one
// connection per operation (the virtual machine's) speaks the same
// protocol. The helper accepts only peers outside its PID
// namespace: SO_PEERCRED reports pid 0 for them, so a process inside the
// sandbox that somehow obtained the descriptor is refused. Once the helper
// listens it writes one byte to its readiness descriptor and closes it, so
// the host waits for readiness instead of polling. A third inherited
// descriptor, the lifeline, is the read end of a pipe whose write end only
// the host holds: when it reaches end of file (the host closed the machine
// or died) the helper exits, and with it every process of the sandbox.
//
// # Framing
//
// Both directions carry frames:
//
//	+--------+----------------------+-----------------+
//	| type   | length (uint32, BE)  | payload         |
//	| 1 byte | 4 bytes              | length bytes    |
//	+--------+----------------------+-----------------+
//
// A payload is at most MaxFrame bytes. Frame types:
//
//	'R' request   host→helper  first frame of a connection, JSON Request
//	'I' stdin     host→helper  bytes for the command's standard input
//	'i' stdin EOF host→helper  empty; closes the command's standard input
//	'D' data      both         transfer bytes (a tar stream or one file)
//	'd' data end  both         empty; the data stream is complete
//	'O' stdout    helper→host  bytes the command wrote to standard output
//	'E' stderr    helper→host  bytes the command wrote to standard error
//	'X' exit      helper→host  JSON Exit; the last frame of an exec
//	'A' ok        helper→host  JSON Ack: an operation succeeded
//	'F' failure   helper→host  JSON Failure; the last frame of any operation
//
// # Operations
//
// exec: R, then I* i when Request.Stdin is set. The helper starts the
// command in its own process group and answers O* E* X (or F). In
// buffered mode (Run) it keeps at most OutputLimit bytes of each stream,
// drains and discards the rest and sends everything with X; in streaming
// mode (OpenProcess) stdout frames are sent as they come, with socket
// backpressure, and stderr is bounded by OutputLimit. When the host closes
// the connection before X the helper kills the process group.
//
// kill: R naming an exec by id. The helper SIGKILLs the exec's process
// group, waits until no member other than zombies remains (scanning /proc)
// and answers A, or F with kind "infrastructure" when that cannot be
// confirmed. Timeouts are enforced by the helper the same way and reported
// in X.
//
// upload: R, then D* d carrying a tar stream made by transfer.WriteTar; the
// helper extracts it at Request.Path and answers A or F.
//
// download: R; the helper answers D* d with a tar stream of Request.Path
// made by transfer.WriteTar, then A, or F. The host applies byte limits
// and its disk reserve while extracting, closing the connection to stop
// the helper early.
//
// shutdown: R; the helper answers A and exits, which ends the sandbox.
package execd
