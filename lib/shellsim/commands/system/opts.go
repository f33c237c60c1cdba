package system

import "github.com/shellbox/shellbox/lib/shellsim/commands/internal/gnuopt"

// The option parser and GNU-style diagnostics shared with the other
// coreutils-like package, under the short names this package uses.
type (
	optSpec    = gnuopt.Spec
	opt        = gnuopt.Opt
	usageError = gnuopt.UsageError
)

var (
	getopts         = gnuopt.Getopts
	unsupportedFlag = gnuopt.Unsupported
	errorf          = gnuopt.Errorf
	missing         = gnuopt.Missing
	q               = gnuopt.Quote
	helpOrVersion   = gnuopt.HelpOrVersion
)

// callCost is the fixed CPU fuel a command spends per call.
const callCost = 50
