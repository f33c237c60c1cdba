package shellsim

import (
	"context"
	"testing"
)

func TestCheckpointDiffReset(t *testing.T) {
	ctx := context.Background()
	e := NewEnvironment(DefaultLimits())
	e.Run(ctx, "mkdir -p d; echo keep > keep; echo old > mod; echo gone > del; ln -s keep link; X=1", nil)
	cp := e.Checkpoint()
	if d := e.WorkspaceDiff(cp); len(d) != 0 {
		t.Fatalf("clean diff: %+v", d)
	}
	e.Run(ctx, "echo new > mod; rm del; echo a > d/added; chmod 700 keep; ln -sf mod link; cd d", nil)
	var got []string
	for _, c := range e.WorkspaceDiff(cp) {
		n := c.After
		if n == nil {
			n = c.Before
		}
		content := string(n.Data) + n.Target
		if c.After == nil {
			content = ""
		}
		got = append(got, c.Kind+" "+n.Type+" "+c.Path+" "+content)
	}
	want := []string{
		"added file /work/d/added a\n",
		"deleted file /work/del ",
		"modified file /work/keep keep\n",
		"modified symlink /work/link mod",
		"modified file /work/mod new\n",
	}
	if len(got) != len(want) {
		t.Fatalf("diff:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("diff:\n%q\nwant\n%q", got, want)
		}
	}
	cpu := e.Usage().CPUUsed
	e.ResetWorkspace(cp)
	if d := e.WorkspaceDiff(cp); len(d) != 0 {
		t.Fatalf("after reset: %+v", d)
	}
	r := e.Run(ctx, "pwd; echo $X; cat /work/mod /work/del; date +%s", nil)
	if string(r.Stdout) != "/work/d\n1\nold\ngone\n1735689600\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	if e.Usage().CPUUsed <= cpu {
		t.Fatal("fuel rewound")
	}
}
