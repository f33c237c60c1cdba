package text

import "testing"

// Fixtures shared by several cases below.
var uTF8DiagnosticsFiles1 = map[string]string{"d/": "", "n5": `1
2
`}

// Goldens recorded from GNU coreutils 9.1 / grep 3.8 with LANG=C.UTF-8 on the build host.
func TestUTF8Diagnostics(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"head", "-n", "x", "n5"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "head: invalid number of lines: \xe2\x80\x98x\xe2\x80\x99\n", status: 1},
		{args: []string{"head", "nosuch"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "head: cannot open 'nosuch' for reading: No such file or directory\n", status: 1},
		{args: []string{"sort", "--sort=foo"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "sort: invalid argument \xe2\x80\x98foo\xe2\x80\x99 for \xe2\x80\x98--sort\xe2\x80\x99\nValid arguments are:\n  - \xe2\x80\x98general-numeric\xe2\x80\x99\n  - \xe2\x80\x98human-numeric\xe2\x80\x99\n  - \xe2\x80\x98month\xe2\x80\x99\n  - \xe2\x80\x98numeric\xe2\x80\x99\n  - \xe2\x80\x98random\xe2\x80\x99\n  - \xe2\x80\x98version\xe2\x80\x99\nTry 'sort --help' for more information.\n", status: 1},
		{args: []string{"sort", "-S", "x"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "sort: invalid -S argument 'x'\n", status: 2},
		{args: []string{"sort", "--foo"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: `sort: unrecognized option '--foo'
Try 'sort --help' for more information.
`, status: 2},
		{args: []string{"join", "a", "b", "c"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: `join: extra operand 'c'
Try 'join --help' for more information.
`, status: 1},
		{args: []string{"uniq", "a", "b", "c"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "uniq: extra operand \xe2\x80\x98c\xe2\x80\x99\nTry 'uniq --help' for more information.\n", status: 1},
		{args: []string{"wc", "--files0-from=x", "a"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: `wc: extra operand 'a'
file operands cannot be combined with --files0-from
Try 'wc --help' for more information.
`, status: 1},
		{args: []string{"tr", "a"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "tr: missing operand after \xe2\x80\x98a\xe2\x80\x99\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", status: 1},
		{args: []string{"tr", "z-a", "x"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", status: 1},
		{args: []string{"cut", "-f", "x"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "cut: invalid field value \xe2\x80\x98x\xe2\x80\x99\nTry 'cut --help' for more information.\n", status: 1},
		{args: []string{"seq", "-f", "%g%g", "1"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "seq: format \xe2\x80\x98%g%g\xe2\x80\x99 has too many % directives\n", status: 1},
		{args: []string{"tac", "nosuch"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "tac: failed to open 'nosuch' for reading: No such file or directory\n", status: 1},
		{args: []string{"tail", "--follow=x", "n5"}, files: uTF8DiagnosticsFiles1, env: map[string]string{"LANG": "C.UTF-8"}, out: "", err: "tail: invalid argument \xe2\x80\x98x\xe2\x80\x99 for \xe2\x80\x98--follow\xe2\x80\x99\nValid arguments are:\n  - \xe2\x80\x98descriptor\xe2\x80\x99\n  - \xe2\x80\x98name\xe2\x80\x99\nTry 'tail --help' for more information.\n", status: 1},
		{args: []string{"wc", "-m"}, files: uTF8DiagnosticsFiles1, stdin: "h\xc3\xa9llo\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "6\n"},
		{args: []string{"grep", "-c", "."}, files: uTF8DiagnosticsFiles1, stdin: "a\xff\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "1\n"},
		{args: []string{"grep", "-oE", "\\w+"}, files: uTF8DiagnosticsFiles1, stdin: "caf\xc3\xa9 na\xc3\xafve \xc3\x9cn\xc3\xafcode 123 x_y\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "caf\xc3\xa9\nna\xc3\xafve\n\xc3\x9cn\xc3\xafcode\n123\nx_y\n"},
		{args: []string{"grep", "-oE", "[[:alpha:]]+"}, files: uTF8DiagnosticsFiles1, stdin: "caf\xc3\xa9 na\xc3\xafve\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "caf\xc3\xa9\nna\xc3\xafve\n"},
		{args: []string{"grep", "-o", "[[:upper:]]\\+"}, files: uTF8DiagnosticsFiles1, stdin: "\xc3\x89COLE \xc3\xa9cole\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "\xc3\x89COLE\n"},
		{args: []string{"grep", "-ow", "caf"}, files: uTF8DiagnosticsFiles1, stdin: "caf\xc3\xa9\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "", status: 1},
		{args: []string{"grep", "-o", "\\bbar\\>"}, files: uTF8DiagnosticsFiles1, stdin: "caf\xc3\xa9 bar\xc3\xa9 bar\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "bar\n"},
		{args: []string{"grep", "-io", "ω"}, files: uTF8DiagnosticsFiles1, stdin: "\xce\xa9mega\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "\xce\xa9\n"},
		{args: []string{"grep", "-o", "[^[:space:][:punct:]]\\+"}, files: uTF8DiagnosticsFiles1, stdin: "a\xc2\xb7b, c\xe2\x80\x83d\n", env: map[string]string{"LANG": "C.UTF-8"}, out: `a
b
c
d
`},
		{args: []string{"grep", "-c", "^.$"}, files: uTF8DiagnosticsFiles1, stdin: "\xc3\xa9\n", env: map[string]string{"LANG": "C.UTF-8"}, out: "1\n"},
	})
}
