package expand

import (
	"testing"
)

// mapEnv is an Environ over fixed variables.
type mapEnv map[string]Variable

func (m mapEnv) Get(name string) Variable { return m[name] }
func (m mapEnv) Each(f func(string, Variable) bool) {
	for n, v := range m {
		if !f(n, v) {
			return
		}
	}
}

// TestForkChanges covers what ShellSim changed from upstream (doc.go).
func TestForkChanges(t *testing.T) {
	assoc := Variable{Set: true, Kind: Associative, Map: map[string]string{}}
	for _, k := range []string{"q", "b", "z", "a", "m", "c", "y", "d"} {
		assoc.Map[k] = k + "v"
	}
	env := mapEnv{
		"h":    assoc,
		"x":    {Set: true, Kind: String, Str: "abcab"},
		"HOME": {Set: true, Kind: String, Str: "/root"},
	}
	cfg := &Config{Env: env}
	for _, c := range []struct{ src, want string }{
		// Associative arrays expand in bash 5.2's hash-table order
		// (whatever the insertion order), every time.
		{`${h[@]}`, "zv yv qv mv dv cv bv av"},
		{`${!h[@]}`, "z y q m d c b a"},
		// ${x/#p/r} and ${x/%p/r} are anchored, as in bash.
		{`${x/#ab/X}`, "Xcab"},
		{`${x/%ab/X}`, "abcX"},
		{`${x/#c/X}`, "abcab"},
		{`${x/%c/X}`, "abcab"},
		// ~ is HOME; ~user is never looked up on the host.
		{`~/f`, "/root/f"},
		{`~root/f`, "~root/f"},
	} {
		for i := 0; i < 5; i++ {
			got, err := Literal(cfg, parseWord(t, c.src))
			if err != nil || got != c.want {
				t.Fatalf("%s = %q, %v; want %q", c.src, got, err, c.want)
			}
		}
	}
}
