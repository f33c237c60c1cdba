package files

import (
	"testing"
)

func TestDu(t *testing.T) {
	f := []string{"x/y/z=abc", "x/f=", "m=" + string(make([]byte, 5000))}
	runTable(t, []tc{
		{name: "default", files: f, args: "du x", out: "8\tx/y\n12\tx\n"},
		{name: "all", files: f, args: "du -a x", out: "0\tx/f\n4\tx/y/z\n8\tx/y\n12\tx\n"},
		{name: "summary-human", files: f, args: "du -sh x m", out: "12K\tx\n8.0K\tm\n"},
		{name: "total", files: f, args: "du -c x/y m", out: "8\tx/y\n8\tm\n16\ttotal\n"},
		{name: "depth", files: f, args: "du -d 0 x", out: "12\tx\n"},
		{name: "missing", args: "du nosuch", err: "du: cannot access 'nosuch': No such file or directory\n", status: 1},
	})
}
