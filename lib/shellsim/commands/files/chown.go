package files

import (
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Chown changes file owner and group.
//
//	chown [-R] OWNER[:[GROUP]] FILE...
//	chown [-R] :GROUP FILE...
func Chown(inv *command.Invocation) int { return chown(inv, false) }

// Chgrp changes group ownership.
//
//	chgrp [-R] GROUP FILE...
func Chgrp(inv *command.Invocation) int { return chown(inv, true) }

func chown(inv *command.Invocation, grpOnly bool) int {
	spec := &getopt.Spec{
		Short: "RvcfhHLP",
		Long: []getopt.Long{
			{"changes", "c"}, {"dereference", "deref"}, {"from=", "from"}, {"no-dereference", "h"},
			{"quiet", "f"}, {"recursive", "R"}, {"reference=", "ref"}, {"silent", "f"},
			{"verbose", "v"},
		},
		Partial: map[string]bool{"ref": true, "from": true, "H": true, "L": true, "v": true, "c": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var recursive, silent bool
	for _, o := range opts {
		switch o.Name {
		case "R":
			recursive = true
		case "f":
			silent = true
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if len(operands) == 1 {
		missing(inv, "missing operand after "+q(operands[0]))
		return 1
	}
	spec0 := operands[0]
	users := inv.Sys.Users()
	uid, gid := -1, -1
	lookupUser := func(name string) (int, bool) {
		if id, ok := users.LookupUser(name); ok {
			return id, true
		}
		if n, err := strconv.Atoi(name); err == nil && n >= 0 {
			return n, true
		}
		return 0, false
	}
	lookupGroup := func(name string) (int, bool) {
		if id, ok := users.LookupGroup(name); ok {
			return id, true
		}
		if n, err := strconv.Atoi(name); err == nil && n >= 0 {
			return n, true
		}
		return 0, false
	}
	if grpOnly {
		g, ok := lookupGroup(spec0)
		if !ok {
			errorf(inv, "invalid group: %s", q(spec0))
			return 1
		}
		gid = g
	} else {
		u, g, hasColon := strings.Cut(spec0, ":")
		if !hasColon {
			u, g, hasColon = strings.Cut(spec0, ".")
			if hasColon {
				if _, ok := lookupUser(spec0); ok {
					u, g, hasColon = spec0, "", false
				}
			}
		}
		if u != "" {
			id, ok := lookupUser(u)
			if !ok {
				errorf(inv, "invalid user: %s", q(spec0))
				return 1
			}
			uid = id
			if hasColon && g == "" {
				// "user:" means the user's login group; the simulated
				// table names each user's group after the user.
				if gg, ok := users.LookupGroup(u); ok {
					gid = gg
				} else {
					gid = uid
				}
			}
		}
		if g != "" {
			id, ok := lookupGroup(g)
			if !ok {
				errorf(inv, "invalid group: %s", q(spec0))
				return 1
			}
			gid = id
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status := 0
	verb := "ownership"
	if grpOnly {
		verb = "group"
	}
	var walk func(name, p string, top bool) bool
	walk = func(name, p string, top bool) bool {
		if err := inv.Sys.Charge(10); err != nil {
			return false
		}
		fi, err := inv.FS.Stat(p)
		if !top {
			fi, err = inv.FS.Lstat(p)
		}
		if err != nil {
			if !silent {
				errorf(inv, "cannot access %s: %s", q(name), command.Message(err))
			}
			status = 1
			return true
		}
		nu, ng := fi.UID, fi.GID
		if uid >= 0 {
			nu = uid
		}
		if gid >= 0 {
			ng = gid
		}
		if err := inv.FS.Chown(p, nu, ng); err != nil {
			if !silent {
				errorf(inv, "changing %s of %s: %s", verb, q(name), command.Message(err))
			}
			status = 1
		}
		if recursive && fi.IsDir() {
			ents, err := inv.FS.ReadDir(p)
			if err != nil {
				errorf(inv, "cannot read directory %s: %s", q(name), command.Message(err))
				status = 1
				return true
			}
			for _, e := range ents {
				if !walk(strings.TrimSuffix(name, "/")+"/"+e.Name, path.Join(p, e.Name), false) {
					return false
				}
			}
		}
		return true
	}
	for _, op := range operands[1:] {
		if !walk(op, inv.Abs(op), true) {
			return 1
		}
	}
	return status
}
