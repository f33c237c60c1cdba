package files

import "testing"

func TestStat(t *testing.T) {
	f := []string{"a=hello", "e0=", "d/", "l->a"}
	runTable(t, []tc{
		{name: "format", files: f, argv: []string{"stat", "-c", "%n|%s|%a|%A|%U|%G|%u|%g|%F|%h", "a", "e0", "d", "l"},
			out: "a|5|644|-rw-r--r--|root|root|0|0|regular file|1\n" +
				"e0|0|644|-rw-r--r--|root|root|0|0|regular empty file|1\n" +
				"d|4096|755|drwxr-xr-x|root|root|0|0|directory|2\n" +
				"l|1|777|lrwxrwxrwx|root|root|0|0|symbolic link|1\n"},
		{name: "times", files: f, argv: []string{"stat", "-c", "%y %Y", "a"}, out: "2025-01-01 00:00:00.000000000 +0000 1735689600\n"},
		{name: "quoted-name", files: f, argv: []string{"stat", "-c", "%N", "l"}, out: "'l' -> 'a'\n"},
		{name: "width", files: f, argv: []string{"stat", "-c", "|%10s|%-5a|", "e0"}, out: "|         0|644  |\n"},
		{name: "dereference", files: f, argv: []string{"stat", "-L", "-c", "%F", "l"}, out: "regular file\n"},
		{name: "printf", files: f, argv: []string{"stat", "--printf", `%n\t%s\n`, "a"}, out: "a\t5\n"},
		{name: "missing", args: "stat nosuch", err: "stat: cannot statx 'nosuch': No such file or directory\n", status: 1},
		{name: "default", files: []string{"a=abc"}, args: "stat a", out: "  File: a\n" +
			"  Size: 3         \tBlocks: 8          IO Block: 4096   regular file\n" +
			"Device: 0,33\tInode: 17          Links: 1\n" +
			"Access: (0644/-rw-r--r--)  Uid: (    0/    root)   Gid: (    0/    root)\n" +
			"Access: 2025-01-01 00:00:00.000000000 +0000\n" +
			"Modify: 2025-01-01 00:00:00.000000000 +0000\n" +
			"Change: 2025-01-01 00:00:00.000000000 +0000\n" +
			" Birth: -\n"},
	})
}

func TestDuDf(t *testing.T) {
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
