package local

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ident is a user to run a command as.
type ident struct {
	uid, gid uint32
	home     string
}

// userDB resolves users through passwd and group files (the host's for a
// HostImage, the image's for a PreparedImage).
type userDB struct {
	passwd, group string
}

// lookup resolves "user" or "user:group", each a name or a number.
func (db userDB) lookup(spec string) (ident, error) {
	user, group, hasGroup := strings.Cut(spec, ":")
	var id ident
	found := false
	num, numErr := strconv.ParseUint(user, 10, 32)
	db.scan(db.passwd, func(f []string) bool {
		if len(f) < 6 {
			return false
		}
		uid, err1 := strconv.ParseUint(f[2], 10, 32)
		gid, err2 := strconv.ParseUint(f[3], 10, 32)
		if err1 != nil || err2 != nil {
			return false
		}
		if f[0] == user || (numErr == nil && uid == num) {
			id = ident{uid: uint32(uid), gid: uint32(gid), home: f[5]}
			found = true
			return true
		}
		return false
	})
	if !found {
		return ident{}, fmt.Errorf("%w %q", errNoUser, user)
	}
	if hasGroup {
		if n, err := strconv.ParseUint(group, 10, 32); err == nil {
			id.gid = uint32(n)
		} else {
			ok := false
			db.scan(db.group, func(f []string) bool {
				if len(f) >= 3 && f[0] == group {
					if n, err := strconv.ParseUint(f[2], 10, 32); err == nil {
						id.gid, ok = uint32(n), true
						return true
					}
				}
				return false
			})
			if !ok {
				return ident{}, fmt.Errorf("%w group %q", errNoUser, group)
			}
		}
	}
	return id, nil
}

func (db userDB) scan(file string, fn func([]string) bool) {
	fh, err := os.Open(file)
	if err != nil {
		return
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if fn(strings.Split(line, ":")) {
			return
		}
	}
}
