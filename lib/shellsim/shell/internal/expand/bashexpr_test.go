package expand

import (
	"strings"
	"testing"
)

func TestArithStringMessages(t *testing.T) {
	env := ListEnviron("x=5", "y=1+", "z=")
	zenv := ListEnviron("x=5", "y=2+1", "z=1/0")
	for _, tc := range []struct{ expr, want string }{
		{"1/0", `1/0: division by 0 (error token is "0")`},
		{"1 % 0", `1 % 0: division by 0 (error token is "0")`},
		{"2**-1", `2**-1: exponent less than 0 (error token is "1")`},
		{"08", `08: value too great for base (error token is "08")`},
		{"2#3", `2#3: value too great for base (error token is "2#3")`},
		{"65#3", `65#3: invalid arithmetic base (error token is "65#3")`},
		{" 1 +", `1 +: syntax error: operand expected (error token is "+")`},
		{" 2 ** ", `2 ** : syntax error: operand expected (error token is "** ")`},
		{" 1 2 ", `1 2 : syntax error in expression (error token is "2 ")`},
		{" 1 = 2 ", `1 = 2 : attempted assignment to non-variable (error token is "= 2 ")`},
		{" 1 ? 2 ", "1 ? 2 : `:' expected for conditional expression (error token is \"2 \")"},
		{" 1 @ 2 ", `1 @ 2 : syntax error: invalid arithmetic operator (error token is "@ 2 ")`},
		{"08 + 1", `08: value too great for base (error token is "08")`},
		{"@ 1", `@ 1: syntax error: operand expected (error token is "@ 1")`},
		{"1 @", `1 @: syntax error: invalid arithmetic operator (error token is "@")`},
		{"x + y = 5 ", `x + y = 5 : attempted assignment to non-variable (error token is "= 5 ")`},
		{"(x) = 5", `(x) = 5: attempted assignment to non-variable (error token is "= 5")`},
		{"x++ = 5", `x++ = 5: attempted assignment to non-variable (error token is "= 5")`},
		{"+x+= 2#3", `+x+= 2#3: attempted assignment to non-variable (error token is "+= 2#3")`},
		{"--z = 1", `1/0: division by 0 (error token is "0")`},
		{"z @~", `z @~: syntax error: invalid arithmetic operator (error token is "@~")`},
		{"y z x", `1/0: division by 0 (error token is "0")`},
		{"x x @-", `x x @-: syntax error: invalid arithmetic operator (error token is "@-")`},
		{"~ 0@1 1", `~ 0@1: value too great for base (error token is "0@1")`},
		{"++x--", `++x--: --: assignment requires lvalue (error token is "--")`},
		{"02#3", `02#3: invalid number (error token is "02#3")`},
		{"1a#2", `1a#2: value too great for base (error token is "1a#2")`},
		{"0#1", `0#1: invalid number (error token is "0#1")`},
		{"10#", `10#: invalid integer constant (error token is "10#")`},
		{"1#1", `1#1: invalid arithmetic base (error token is "1#1")`},
		{"2#1#1", `2#1#1: invalid number (error token is "2#1#1")`},
		{"37#Z", `37#Z: value too great for base (error token is "37#Z")`},
		{"y", `1+: syntax error: operand expected (error token is "+")`},
		{" x /= 0 ", `x /= 0 : division by 0 (error token is "0 ")`},
	} {
		e := env
		if strings.Contains(tc.expr, "z") {
			e = zenv
		}
		_, err := ArithString(&Config{Env: e}, tc.expr, true)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %s", tc.expr, err, tc.want)
		}
	}
	for _, tc := range []struct {
		expr string
		want int64
	}{
		{"1+2*3", 7}, {"x*2", 10}, {"z+1", 1}, {"2**10", 1024}, {"1 ? 2 : 3", 2}, {"1 || 1/0", 1},
		{"0 && 1/0", 0}, {"0 ? 1/0 : 4", 4}, {"-x", -5}, {"!0", 1}, {"~0", -1}, {"64#_", 63}, {"0x1f", 31}, {"010", 8}, {"0x", 0}, {"36#Zz", 1295}, {"64#@_", 4031},
		{"1 << 3 >> 1", 4}, {"(1+2)*3", 9}, {"3 > 2 == 1", 1}, {"1,2", 2}, {"--x", 4}, {"- -1", 1},
	} {
		got, err := ArithString(&Config{Env: env}, tc.expr, true)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %d, %v, want %d", tc.expr, got, err, tc.want)
		}
	}
}
