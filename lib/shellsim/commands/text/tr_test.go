package text

import "testing"

// Fixtures shared by several cases below.
var trFiles1 = map[string]string{"c": `a:b:c
abc
one	two	three
:x:
`, "d/": "", "u": `a
a
b
A
a
c
c
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestTr(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"tr"}, files: trFiles1, out: "", err: `tr: missing operand
Try 'tr --help' for more information.
`, status: 1},
		{args: []string{"tr", "abc"}, files: trFiles1, out: "", err: `tr: missing operand after 'abc'
Two strings must be given when translating.
Try 'tr --help' for more information.
`, status: 1},
		{args: []string{"tr", "-d", "a", "b"}, files: trFiles1, out: "", err: `tr: extra operand 'b'
Only one string may be given when deleting without squeezing repeats.
Try 'tr --help' for more information.
`, status: 1},
		{args: []string{"tr", "a", ""}, files: trFiles1, out: "", err: "tr: when not truncating set1, string2 must be non-empty\n", status: 1},
		{args: []string{"tr", "z-a", "x"}, files: trFiles1, out: "", err: "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", status: 1},
		{args: []string{"tr", "a", "[:digit:]"}, files: trFiles1, out: "", err: `tr: when translating, the only character classes that may appear in
string2 are 'upper' and 'lower'
`, status: 1},
		{args: []string{"tr", "a-y", "b-z"}, files: trFiles1, stdin: "hello\n", out: "ifmmp\n"},
		{args: []string{"tr", "-s", "l"}, files: trFiles1, stdin: "hello\n", out: "helo\n"},
		{args: []string{"tr", "-s", " ", "_"}, files: trFiles1, stdin: "a  b   c\n", out: "a_b_c\n"},
		{args: []string{"tr", "-c", "a-z", "X"}, files: trFiles1, stdin: "hello\n", out: "helloX"},
		{args: []string{"tr", "-cd", "l\\n"}, files: trFiles1, stdin: "hello\n", out: "ll\n"},
		{args: []string{"tr", "[:lower:]", "[:upper:]"}, files: trFiles1, stdin: "abc\n", out: "ABC\n"},
		{args: []string{"tr", "[:upper:]", "[:lower:]"}, files: trFiles1, stdin: "Hello World\n", out: "hello world\n"},
		{args: []string{"tr", "abcde", "xy"}, files: trFiles1, stdin: "abcde\n", out: "xyyyy\n"},
		{args: []string{"tr", "-t", "abcde", "xy"}, files: trFiles1, stdin: "abcde\n", out: "xycde\n"},
		{args: []string{"tr", "-d", "[:digit:]"}, files: trFiles1, stdin: "a1b2\n", out: "ab\n"},
		{args: []string{"tr", "-ds", "a", "b"}, files: trFiles1, stdin: "aaabbb\n", out: "b\n"},
		{args: []string{"tr", "a-c", "[x*]"}, files: trFiles1, stdin: "abc\n", out: "xxx\n"},
		{args: []string{"tr", "a-d", "[x*2]y"}, files: trFiles1, stdin: "abcd\n", out: "xxyy\n"},
		{args: []string{"tr", "\\t", " "}, files: trFiles1, stdin: "a\tb\n", out: "a b\n"},
		{args: []string{"tr", "\\141", "z"}, files: trFiles1, stdin: "abc\n", out: "zbc\n"},
		{args: []string{"tr", "-s", "a-z"}, files: trFiles1, stdin: "hello  aabb\n", out: "helo  ab\n"},
		{args: []string{"tr", "a", "\\"}, files: trFiles1, stdin: "abc\n", out: "\\bc\n", err: "tr: warning: an unescaped backslash at end of string is not portable\n"},
		{args: []string{"tr", "-c", "x", "a-b"}, files: trFiles1, stdin: "x\n", out: "xb"},
		{args: []string{"tr", "[=a=]", "z"}, files: trFiles1, stdin: "ab\n", out: "zb\n"},
		{args: []string{"tr", "a-", "xy"}, files: trFiles1, stdin: "ab-\n", out: "xby\n"},
		{args: []string{"tr", "-", "_"}, files: trFiles1, stdin: "a-b\n", out: "a_b\n"},
		{args: []string{"tr", "a", "b", "c"}, files: trFiles1, out: "", err: `tr: extra operand 'c'
Try 'tr --help' for more information.
`, status: 1},
		{args: []string{"tr", "[:upper:]", "a"}, files: trFiles1, stdin: "ABC\n", out: "aaa\n"},
		{args: []string{"tr", "-d", "\\n"}, files: trFiles1, stdin: `a
b
`, out: "ab"},
		{args: []string{"tr", "\\n", " "}, files: trFiles1, stdin: `a
b
`, out: "a b "},
		{args: []string{"tr", "-cs", "[:alnum:]", "\\n"}, files: trFiles1, stdin: "the quick, brown fox!\n", out: `the
quick
brown
fox
`},
		{args: []string{"tr", "[:foo:]", "x"}, files: trFiles1, out: "", err: "tr: invalid character class 'foo'\n", status: 1},
		{args: []string{"tr", "a[b*3]", "x"}, files: trFiles1, out: ""},
		{args: []string{"tr", "-d", "[:space:]"}, files: trFiles1, stdin: ` a	b
c 
`, out: "abc"},
		{args: []string{"tr", "[a*]", "x"}, files: trFiles1, out: "", err: "tr: the [c*] repeat construct may not appear in string1\n", status: 1},
		{args: []string{"tr", "abc", "[1*][2*]"}, files: trFiles1, out: "", err: "tr: only one [c*] repeat construct may appear in string2\n", status: 1},
		{args: []string{"tr", "-s", "\\n"}, files: trFiles1, stdin: `a


b
`, out: `a
b
`},
		{args: []string{"tr", "{}", "()"}, files: trFiles1, stdin: "{x}\n", out: "(x)\n"},
		{args: []string{"tr", "[]", "xy"}, files: trFiles1, stdin: "[a]\n", out: "xay\n"},
	})
}
