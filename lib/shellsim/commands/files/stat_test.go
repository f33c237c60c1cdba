package files

import (
	"testing"
)

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
	})
}

func TestStatDefault(t *testing.T) {
	e := setup(t, []string{"a=abc"})
	fi, _ := e.FS.Lstat("/work/a")
	want := "  File: a\n" +
		"  Size: 3         \tBlocks: 8          IO Block: 4096   regular file\n" +
		sprintf("Device: 0,33\tInode: %-11d Links: 1\n", fi.Ino) +
		"Access: (0644/-rw-r--r--)  Uid: (    0/    root)   Gid: (    0/    root)\n" +
		"Access: 2025-01-01 00:00:00.000000000 +0000\n" +
		"Modify: 2025-01-01 00:00:00.000000000 +0000\n" +
		"Change: 2025-01-01 00:00:00.000000000 +0000\n" +
		" Birth: -\n"
	if out, errs, st := e.Run([]string{"stat", "a"}, ""); out != want || errs != "" || st != 0 {
		t.Errorf("got %q %q %d\nwant %q", out, errs, st, want)
	}
}
