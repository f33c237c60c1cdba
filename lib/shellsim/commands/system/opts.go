package system

import "github.com/shellbox/shellbox/lib/shellsim/command/getopt"

// GNU-style diagnostics, under the short names this package uses.
var (
	errorf  = getopt.Errorf
	missing = getopt.UsageError
	q       = getopt.Quote
)

// callCost is the fixed CPU fuel a command spends per call.
const callCost = 50
