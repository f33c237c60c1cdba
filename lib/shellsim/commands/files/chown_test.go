package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestChown(t *testing.T) {
	owner := func(p string, uid, gid int) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			fi, _ := e.FS.Lstat("/work/" + p)
			if fi.UID != uid || fi.GID != gid {
				t.Errorf("%s owned by %d:%d, want %d:%d", p, fi.UID, fi.GID, uid, gid)
			}
		}
	}
	f := []string{"m=x", "d/e="}
	runTable(t, []tc{
		{name: "user-group", files: f, args: "chown user:user m", check: owner("m", 1000, 1000)},
		{name: "user-only", files: f, args: "chown user m", check: owner("m", 1000, 0)},
		{name: "user-colon", files: f, args: "chown user: m", check: owner("m", 1000, 1000)},
		{name: "group-only", files: f, args: "chown :user m", check: owner("m", 0, 1000)},
		{name: "numeric", files: f, args: "chown 42:43 m", check: owner("m", 42, 43)},
		{name: "recursive", files: f, args: "chown -R user d", check: owner("d/e", 1000, 0)},
		{name: "chgrp", files: f, args: "chgrp user m", check: owner("m", 0, 1000)},
		{name: "bad-user", files: f, args: "chown zz m", err: "chown: invalid user: 'zz'\n", status: 1},
		{name: "bad-group", files: f, args: "chown root:zz m", err: "chown: invalid group: 'root:zz'\n", status: 1},
		{name: "chgrp-bad", files: f, args: "chgrp zz m", err: "chgrp: invalid group: 'zz'\n", status: 1},
		{name: "missing-file", args: "chown root", err: "chown: missing operand after 'root'\nTry 'chown --help' for more information.\n", status: 1},
		{name: "no-such", args: "chown root nosuch", err: "chown: cannot access 'nosuch': No such file or directory\n", status: 1},
	})
}
