package files

import (
	"bufio"
	"fmt"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Df reports the simulated disk: one filesystem mounted on / whose size
// is the disk quota.
//
//	df [-hkTP] [FILE]...
func Df(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "hkTPHmai",
		Long: []getopt.Long{
			{"all", "a"}, {"human-readable", "h"}, {"inodes", "i"}, {"output", "output"},
			{"output=", "output"}, {"portability", "P"}, {"print-type", "T"}, {"si", "H"},
			{"total", "total"},
		},
		Partial: map[string]bool{"H": true, "i": true, "output": true, "total": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	hum, typ := false, false
	unit := int64(1024)
	for _, o := range opts {
		switch o.Name {
		case "h":
			hum = true
		case "k":
			unit, hum = 1024, false
		case "m":
			unit, hum = 1024*1024, false
		case "T":
			typ = true
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	for _, op := range operands {
		if _, err := inv.FS.Stat(inv.Abs(op)); err != nil {
			errorf(inv, "%s: %s", op, command.Message(err))
			return 1
		}
	}
	quota, used := inv.Sys.Disk()
	avail := max(quota-used, 0)
	pct := "-"
	if quota > 0 {
		pct = fmt.Sprintf("%d%%", (used*100+quota-1)/quota)
	}
	w := bufio.NewWriter(inv.Stdout)
	fs, typeCol := "shellsim", ""
	if typ {
		typeCol = " Type    "
	}
	if hum {
		fmt.Fprintf(w, "Filesystem     %s Size  Used Avail Use%% Mounted on\n", typeCol)
		if typ {
			typeCol = " vfs     "
		}
		fmt.Fprintf(w, "%-14s %s%4s  %4s  %4s %4s /\n", fs, typeCol, human(quota), human(used), human(avail), pct)
	} else {
		hdr := "1K-blocks"
		if unit != 1024 {
			hdr = "1M-blocks"
		}
		fmt.Fprintf(w, "Filesystem     %s%9s %9s %9s Use%% Mounted on\n", typeCol, hdr, "Used", "Available")
		if typ {
			typeCol = "vfs      "
		}
		fmt.Fprintf(w, "%-14s %s%9d %9d %9d %4s /\n", fs, typeCol, (quota+unit-1)/unit, (used+unit-1)/unit, avail/unit, pct)
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}
