package diff

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestApplyPatch(t *testing.T) {
	cases := []commandtest.Golden{
		{Name: "update-add-delete",
			Files:  map[string]string{"a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n", "old.txt": "x\n"},
			Stdin:  "*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    return 2\n+    return 3\n*** Add File: new/b.txt\n+hello\n+world\n*** Delete File: old.txt\n*** End Patch\n",
			Stdout: "Success. Updated the following files:\nM a.py\nA new/b.txt\nD old.txt\n",
			After:  map[string]*string{"a.py": commandtest.Text("def f():\n    return 1\n\n\ndef g():\n    return 3\n"), "new/b.txt": commandtest.Text("hello\nworld\n"), "old.txt": nil}},
		{Name: "context-and-move",
			Files:  map[string]string{"src/m.go": "package m\n\nfunc A() {}\n\nfunc B() {}\n"},
			Stdin:  "*** Begin Patch\n*** Update File: src/m.go\n*** Move to: src/n.go\n@@\n func A() {}\n \n-func B() {}\n+func C() {}\n*** End Patch",
			Stdout: "Success. Updated the following files:\nM src/n.go\n",
			After:  map[string]*string{"src/n.go": commandtest.Text("package m\n\nfunc A() {}\n\nfunc C() {}\n"), "src/m.go": nil}},
		{Name: "whitespace-tolerant",
			Files:  map[string]string{"t.txt": "alpha  \nbeta\n"},
			Stdin:  "*** Begin Patch\n*** Update File: t.txt\n@@\n alpha\n-beta\n+gamma\n*** End Patch\n",
			Stdout: "Success. Updated the following files:\nM t.txt\n",
			After:  map[string]*string{"t.txt": commandtest.Text("alpha\ngamma\n")}}, // context comes from the patch, as in codex
		{Name: "not-found-is-atomic",
			Files:  map[string]string{"a.txt": "one\n", "b.txt": "two\n"},
			Stdin:  "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-zzz\n+ZZZ\n*** End Patch\n",
			Stderr: "Failed to find expected lines in b.txt:\nzzz\n", Status: 1,
			After: map[string]*string{"a.txt": commandtest.Text("one\n"), "b.txt": commandtest.Text("two\n")}},
		{Name: "bad-start",
			Stdin: "--- a\n+++ b\n", Stderr: "Invalid patch: The first line of the patch must be '*** Begin Patch'\n", Status: 1},
		{Name: "unsafe-path",
			Stdin:  "*** Begin Patch\n*** Add File: ../evil\n+x\n*** End Patch\n",
			Stderr: "Invalid patch: path ../evil must be relative and stay inside the working directory\n", Status: 1},
		{Name: "end-of-file",
			Files:  map[string]string{"e.txt": "a\nb\na\nb\n"},
			Stdin:  "*** Begin Patch\n*** Update File: e.txt\n@@\n a\n-b\n+B\n*** End of File\n*** End Patch\n",
			Stdout: "Success. Updated the following files:\nM e.txt\n",
			After:  map[string]*string{"e.txt": commandtest.Text("a\nb\na\nB\n")}},
	}
	for i := range cases {
		cases[i].Args = []string{"apply_patch"}
	}
	commandtest.Goldens{Commands: [][]command.Entry{Commands()}}.Run(t, cases)
}
