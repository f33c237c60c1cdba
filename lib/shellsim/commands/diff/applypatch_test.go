package diff

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestApplyPatch(t *testing.T) {
	type file struct{ path, content string }
	cases := []struct {
		name     string
		files    []file
		patch    string
		out, err string
		status   int
		after    []file
		gone     []string
	}{
		{name: "update-add-delete",
			files: []file{{"a.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n"}, {"old.txt", "x\n"}},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    return 2\n+    return 3\n*** Add File: new/b.txt\n+hello\n+world\n*** Delete File: old.txt\n*** End Patch\n",
			out:   "Success. Updated the following files:\nM a.py\nA new/b.txt\nD old.txt\n",
			after: []file{{"a.py", "def f():\n    return 1\n\n\ndef g():\n    return 3\n"}, {"new/b.txt", "hello\nworld\n"}},
			gone:  []string{"old.txt"}},
		{name: "context-and-move",
			files: []file{{"src/m.go", "package m\n\nfunc A() {}\n\nfunc B() {}\n"}},
			patch: "*** Begin Patch\n*** Update File: src/m.go\n*** Move to: src/n.go\n@@\n func A() {}\n \n-func B() {}\n+func C() {}\n*** End Patch",
			out:   "Success. Updated the following files:\nM src/n.go\n",
			after: []file{{"src/n.go", "package m\n\nfunc A() {}\n\nfunc C() {}\n"}},
			gone:  []string{"src/m.go"}},
		{name: "whitespace-tolerant",
			files: []file{{"t.txt", "alpha  \nbeta\n"}},
			patch: "*** Begin Patch\n*** Update File: t.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n",
			out:   "Success. Updated the following files:\nM t.txt\n",
			after: []file{{"t.txt", "alpha\ngamma\n"}}}, // context comes from the patch, as in codex
		{name: "not-found-is-atomic",
			files: []file{{"a.txt", "one\n"}, {"b.txt", "two\n"}},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-zzz\n+ZZZ\n*** End Patch\n",
			err:   "Failed to find expected lines in b.txt:\nzzz\n", status: 1,
			after: []file{{"a.txt", "one\n"}, {"b.txt", "two\n"}}},
		{name: "bad-start",
			patch: "--- a\n+++ b\n", err: "Invalid patch: The first line of the patch must be '*** Begin Patch'\n", status: 1},
		{name: "unsafe-path",
			patch: "*** Begin Patch\n*** Add File: ../evil\n+x\n*** End Patch\n",
			err:   "Invalid patch: path ../evil must be relative and stay inside the working directory\n", status: 1},
		{name: "end-of-file",
			files: []file{{"e.txt", "a\nb\na\nb\n"}},
			patch: "*** Begin Patch\n*** Update File: e.txt\n@@\n a\n-b\n+B\n*** End of File\n*** End Patch\n",
			out:   "Success. Updated the following files:\nM e.txt\n",
			after: []file{{"e.txt", "a\nb\na\nB\n"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := commandtest.New(t, Commands())
			for _, f := range c.files {
				e.WriteFile(f.path, f.content)
			}
			out, errOut, st := e.Run([]string{"apply_patch"}, c.patch)
			if out != c.out || errOut != c.err || st != c.status {
				t.Errorf("got %q %q %d", out, errOut, st)
			}
			for _, f := range c.after {
				if got := e.ReadFile(f.path); got != f.content {
					t.Errorf("%s = %q, want %q", f.path, got, f.content)
				}
			}
			for _, g := range c.gone {
				if e.Exists(g) {
					t.Errorf("%s still exists", g)
				}
			}
		})
	}
}
