package bridge

import "context"

// extraRoot holds root methods that packages of this bridge add from their
// own files (shell sessions, agent runs), so root.go stays one switch.
var extraRoot = map[string]func(b *Bridge, ctx context.Context, req []byte) (Reply, error){}
