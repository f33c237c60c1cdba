package system

import "testing"

func TestExpr(t *testing.T) {
	cases := []struct {
		args   []string
		out    string
		status int
	}{
		{[]string{"1", "+", "2"}, "3", 0}, {[]string{"10", "/", "3"}, "3", 0}, {[]string{"10", "%", "3"}, "1", 0},
		{[]string{"2", "*", "3"}, "6", 0}, {[]string{"5", "-", "7"}, "-2", 0}, {[]string{"3", "<", "10"}, "1", 0},
		{[]string{"abc", "<", "b"}, "1", 0}, {[]string{"a", "=", "a"}, "1", 0}, {[]string{"a", "!=", "a"}, "0", 1},
		{[]string{"0", "|", "5"}, "5", 0}, {[]string{"0", "&", "5"}, "0", 1}, {[]string{"3", "&", "0"}, "0", 1},
		{[]string{"", "|", ""}, "0", 1}, {[]string{"length", "hello"}, "5", 0}, {[]string{"substr", "hello", "2", "3"}, "ell", 0},
		{[]string{"index", "hello", "lo"}, "3", 0}, {[]string{"hello", ":", "hel"}, "3", 0}, {[]string{"hello", ":", `h\(el\)`}, "el", 0},
		{[]string{"hello", ":", "x"}, "0", 1}, {[]string{"hello", ":", `x\(y\)`}, "", 1}, {[]string{"match", "abc", "a."}, "2", 0},
		{[]string{"(", "1", "+", "2", ")", "*", "3"}, "9", 0}, {[]string{"+", "length"}, "length", 0},
		{[]string{"abc", ":", ".*"}, "3", 0}, {[]string{"-5", "+", "3"}, "-2", 0}, {[]string{"00"}, "00", 1},
		{[]string{"99999999999999999999", "+", "1"}, "100000000000000000000", 0},
	}
	var table []tc
	for _, c := range cases {
		table = append(table, tc{name: c.out + "/" + c.args[0], argv: append([]string{"expr"}, c.args...), out: c.out + "\n", status: c.status})
	}
	table = append(table,
		tc{name: "non-integer", argv: []string{"expr", "1", "+", "a"}, err: "expr: non-integer argument\n", status: 2},
		tc{name: "div-zero", argv: []string{"expr", "1", "/", "0"}, err: "expr: division by zero\n", status: 2},
		tc{name: "missing-after", argv: []string{"expr", "1", "+"}, err: "expr: syntax error: missing argument after '+'\n", status: 2},
		tc{name: "unexpected", argv: []string{"expr", "1", "2"}, err: "expr: syntax error: unexpected argument '2'\n", status: 2},
		tc{name: "no-args", argv: []string{"expr"}, err: "expr: missing operand\nTry 'expr --help' for more information.\n", status: 2},
	)
	runTable(t, table)
}
