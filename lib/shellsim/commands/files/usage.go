package files

import "github.com/shellbox/shellbox/lib/shellsim/command/getopt"

// usages are the GNU synopsis lines printed by --help.
var usages = map[string]string{
	"ls":       "ls [OPTION]... [FILE]...",
	"cp":       "cp [OPTION]... [-T] SOURCE DEST\n  or:  cp [OPTION]... SOURCE... DIRECTORY\n  or:  cp [OPTION]... -t DIRECTORY SOURCE...",
	"mv":       "mv [OPTION]... [-T] SOURCE DEST\n  or:  mv [OPTION]... SOURCE... DIRECTORY\n  or:  mv [OPTION]... -t DIRECTORY SOURCE...",
	"rm":       "rm [OPTION]... [FILE]...",
	"mkdir":    "mkdir [OPTION]... DIRECTORY...",
	"rmdir":    "rmdir [OPTION]... DIRECTORY...",
	"touch":    "touch [OPTION]... FILE...",
	"ln":       "ln [OPTION]... [-T] TARGET LINK_NAME\n  or:  ln [OPTION]... TARGET\n  or:  ln [OPTION]... TARGET... DIRECTORY\n  or:  ln [OPTION]... -t DIRECTORY TARGET...",
	"chmod":    "chmod [OPTION]... MODE[,MODE]... FILE...\n  or:  chmod [OPTION]... OCTAL-MODE FILE...",
	"chown":    "chown [OPTION]... [OWNER][:[GROUP]] FILE...",
	"chgrp":    "chgrp [OPTION]... GROUP FILE...",
	"stat":     "stat [OPTION]... FILE...",
	"du":       "du [OPTION]... [FILE]...",
	"df":       "df [OPTION]... [FILE]...",
	"find":     "find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]",
	"xargs":    "xargs [OPTION]... COMMAND [INITIAL-ARGS]...",
	"basename": "basename NAME [SUFFIX]\n  or:  basename OPTION... NAME...",
	"dirname":  "dirname [OPTION] NAME...",
	"realpath": "realpath [OPTION]... FILE...",
	"readlink": "readlink [OPTION]... FILE...",
	"mktemp":   "mktemp [OPTION]... [TEMPLATE]",
	"tree":     "tree [-adfF] [-L level] [--noreport] [directory ...]",
	"truncate": "truncate OPTION... FILE...",
}

// init tells the shared option parser what --help and --version print.
func init() {
	for name, synopsis := range usages {
		getopt.Describe(name, getopt.Tool{Synopsis: synopsis, Package: packageOf(name), Version: versionOf(name)})
	}
}

func packageOf(name string) string {
	switch name {
	case "xargs", "find":
		return "GNU findutils"
	case "tree":
		return "tree"
	}
	return "GNU coreutils"
}

func versionOf(name string) string {
	switch name {
	case "xargs", "find":
		return "4.9.0"
	case "tree":
		return "v2.1.0"
	}
	return "9.1"
}
