package system

import "github.com/shellbox/shellbox/lib/shellsim/command/getopt"

// usages are the GNU synopsis lines printed by --help.
var usages = map[string]string{
	"date":     "date [OPTION]... [+FORMAT]",
	"expr":     "expr EXPRESSION",
	"sleep":    "sleep NUMBER[SUFFIX]...",
	"timeout":  "timeout [OPTION] DURATION COMMAND [ARG]...",
	"env":      "env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]",
	"printenv": "printenv [OPTION]... [VARIABLE]...",
	"uname":    "uname [OPTION]...",
	"hostname": "hostname [-s]",
	"id":       "id [OPTION]... [USER]...",
	"whoami":   "whoami [OPTION]...",
	"nproc":    "nproc [OPTION]...",
	"free":     "free [options]",
}

// init tells the shared option parser what --help and --version print.
func init() {
	for name, synopsis := range usages {
		getopt.Describe(name, getopt.Tool{Synopsis: synopsis, Package: packageOf(name), Version: versionOf(name)})
	}
}

func packageOf(name string) string {
	switch name {
	case "free":
		return "procps-ng"
	case "hostname":
		return "hostname"
	}
	return "GNU coreutils"
}

func versionOf(name string) string {
	switch name {
	case "free":
		return "4.0.2"
	case "hostname":
		return "3.23"
	}
	return "9.1"
}
