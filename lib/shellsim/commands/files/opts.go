package files

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

var runChild = gnuopt.RunChild

const umask = gnuopt.Umask
