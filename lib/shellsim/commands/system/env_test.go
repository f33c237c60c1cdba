package system

import (
	"testing"
)

func TestEnv(t *testing.T) {
	env := map[string]string{"A": "1", "B": "2"}
	runTable(t, []tc{
		{name: "print", args: "env", env: env, out: "A=1\nB=2\n"},
		{name: "ignore", args: "env -i X=y", env: env, out: "X=y\n"},
		{name: "unset", args: "env -u A C=3", env: env, out: "B=2\nC=3\n"},
		{name: "empty-name", args: "env -i =x", out: "=x\n"},
		{name: "dash", args: "env - Z=1", env: env, out: "Z=1\n"},
		{name: "run", args: "env -i FOO=bar printenv FOO", env: env, out: "bar\n"},
		{name: "run-not-found", args: "env nosuch", env: env, err: "nosuch: command not found\n", status: 127},
		{name: "unset-missing-arg", args: "env -u", err: "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n", status: 125},
		{name: "printenv", args: "printenv B A", env: env, out: "2\n1\n"},
		{name: "printenv-missing", args: "printenv NOPE", env: env, status: 1},
		{name: "printenv-all", args: "printenv", env: env, out: "A=1\nB=2\n"},
	})
}
