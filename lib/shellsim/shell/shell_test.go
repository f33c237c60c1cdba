package shell_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

type golden struct {
	name, src      string
	stdout, stderr string
	status         int
}

func runGolden(t *testing.T, tests []golden) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := shellsim.NewEnvironment(shellsim.DefaultLimits())
			defer env.Close()
			r := env.Run(context.Background(), tc.src, nil)
			if string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr || r.Outcome.ExitStatus != tc.status {
				t.Errorf("script:\n%s\ngot  stdout=%q stderr=%q status=%d\nwant stdout=%q stderr=%q status=%d",
					tc.src, r.Stdout, r.Stderr, r.Outcome.ExitStatus, tc.stdout, tc.stderr, tc.status)
			}
		})
	}
}

func TestVariablesAndQuoting(t *testing.T) {
	runGolden(t, []golden{
		{"echo", `echo "a  b" 'c' $HOME`, "a  b c /root\n", "", 0},
		{"split", `x="1 2  3"; for w in $x; do echo "[$w]"; done`, "[1]\n[2]\n[3]\n", "", 0},
		{"ifs", `IFS=, read -r x y z <<< "a,b,c"; echo $y`, "b\n", "", 0},
		{"dollar-single", `x=$'tab\there'; echo "$x"`, "tab\there\n", "", 0},
		{"append", `a="x"; a+="y"; echo $a`, "xy\n", "", 0},
		{"readonly", "readonly R=1; R=2; echo $R", "", "bash: line 1: R: readonly variable\n", 1},
		{"nounset", "set -u; echo $nope; echo after", "", "bash: line 1: nope: unbound variable\n", 127},
		{"default-assign", `unset u; echo ${u:-def} ${u:=set} $u ${u:+alt}`, "def set set alt\n", "", 0},
		{"error-param", `echo ${x:?oops}; echo after`, "", "bash: line 1: x: oops\n", 127},
		{"indirect", `x=foo; y=x; echo ${!y}`, "foo\n", "", 0},
		{"integer", `declare -i n=5; n+=3; echo $n`, "8\n", "", 0},
		{"lower", `declare -l l=ABC; echo $l`, "abc\n", "", 0},
		{"positional", `set -- p q r; echo $#; shift 2; echo $1`, "3\nr\n", "", 0},
		{"local-dynamic", `f() { local v=inner; g; }; g() { echo $v; }; v=outer; f; echo $v`, "inner\nouter\n", "", 0},
	})
}

func TestExpansions(t *testing.T) {
	runGolden(t, []golden{
		{"strip", `s=hello.tar.gz; echo ${s%.*} ${s%%.*} ${s#*.} ${s##*.}`, "hello.tar hello tar.gz gz\n", "", 0},
		{"replace", `s=hello; echo ${s/l/L} ${s//l/L} ${s:1:3} ${s^^} ${#s}`, "heLlo heLLo ell HELLO 5\n", "", 0},
		{"offset-neg", `x=abc; echo ${x:0:1} ${x: -1}`, "a c\n", "", 0},
		{"arith", `echo $(( 7 / 2 )) $(( 2**10 )) $(( -7 % 3 )) $((0x10)) $((2#101))`, "3 1024 -1 16 5\n", "", 0},
		{"brace", `echo {1..5} {a,b}c {10..1..3}`, "1 2 3 4 5 ac bc 10 7 4 1\n", "", 0},
		{"cmdsubst", `v=$(echo inner); echo "got $v" $(echo a; echo b)`, "got inner a b\n", "", 0},
		{"backtick", "echo `echo bt`", "bt\n", "", 0},
		{"subst-status", `x=$(exit 3); echo $?`, "3\n", "", 0},
		{"glob-nullglob", `shopt -s nullglob; for f in /tmp/none*; do echo "$f"; done; echo end`, "end\n", "", 0},
		{"glob", `touch a1 a2 b1; echo a*`, "a1 a2\n", "", 0},
		{"tilde", `echo ~ ~root`, "/root /root\n", "", 0},
	})
}

func TestArrays(t *testing.T) {
	runGolden(t, []golden{
		{"indexed", `a=(one two three); echo ${#a[@]} ${a[1]} "${a[@]:1}"; a+=(four); echo ${a[-1]}; echo ${!a[@]}`,
			"3 two two three\nfour\n0 1 2 3\n", "", 0},
		{"assoc", `declare -A m; m[x]=1; m[y]=2; for k in "${!m[@]}"; do echo $k=${m[$k]}; done`, "y=2\nx=1\n", "", 0},
		{"sparse", `arr=([3]=c [1]=a); echo ${!arr[@]} ${arr[@]}; unset 'arr[1]'; echo ${!arr[@]}`, "1 3 a c\n3\n", "", 0},
		{"declare-p", `arr=(a b); declare -p arr; declare -A h=([k]=v); declare -p h; x=1; declare -p x`,
			"declare -a arr=([0]=\"a\" [1]=\"b\")\ndeclare -A h=([k]=\"v\" )\ndeclare -- x=\"1\"\n", "", 0},
		{"mapfile", `mapfile -t lines <<< $'l1\nl2'; echo ${#lines[@]} ${lines[1]}`, "2 l2\n", "", 0},
		{"read-a", `IFS=: read -ra p <<< "a:b:c"; echo ${#p[@]} ${p[2]}`, "3 c\n", "", 0},
		{"rematch", `[[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}`, "b\n", "", 0},
		// POSIX ERE as bash 5.2 reads it: quoted parts are literal, \d is
		// "d", '.' matches a newline, submatches are leftmost-longest.
		{"rematch-posix", `[[ abc =~ "a.c" ]]; echo $?; [[ d1 =~ \d ]]; echo $? ${BASH_REMATCH[0]}; [[ $'a\nb' =~ a.b ]]; echo $?
[[ abcd =~ (a|ab)(c|bcd) ]]; echo ${BASH_REMATCH[@]}; [[ xy =~ x(z)?y ]]; echo ${#BASH_REMATCH[@]} "[${BASH_REMATCH[1]}]"`,
			"1\n0 d\n0\nabcd a bcd\n2 []\n", "", 0},
	})
}

func TestControlFlow(t *testing.T) {
	runGolden(t, []golden{
		{"while", `i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done`, "1\n2\n3\n", "", 0},
		{"until", `n=0; until [ $n -ge 2 ]; do n=$((n+1)); done; echo $n`, "2\n", "", 0},
		{"cfor", `for ((i=0;i<3;i++)); do echo c$i; done`, "c0\nc1\nc2\n", "", 0},
		{"case", `case foo.txt in *.sh) echo sh;; *.txt) echo txt;; esac`, "txt\n", "", 0},
		{"case-fallthrough", `case a in a) echo 1;& b) echo 2;; c) echo 3;; esac`, "1\n2\n", "", 0},
		{"break2", `for i in 1 2; do for j in a b; do [ $j = b ] && break 2; echo $i$j; done; done`, "1a\n", "", 0},
		{"continue", `for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done`, "1\n3\n", "", 0},
		{"func-return", `f() { return 5; }; f; echo $?`, "5\n", "", 0},
		{"func-args", `f() { echo "args: $# $*"; shift; echo "$1"; }; f a b c`, "args: 3 a b c\nb\n", "", 0},
		{"andor", `false || echo ok; true && echo yes; ! true; echo $?`, "ok\nyes\n1\n", "", 0},
		{"subshell", `x=1; (x=2; exit 3); echo $? $x`, "3 1\n", "", 0},
		{"group-redirect", `{ echo a; echo b; } > f; cat f`, "a\nb\n", "", 0},
		{"exit", `echo a; exit 4; echo b`, "a\n", "", 4},
		{"errexit", `set -e; false; echo no`, "", "", 1},
		{"errexit-cond", `set -e; if false; then :; fi; false && true; echo survived`, "survived\n", "", 0},
		{"errexit-func", `g() { false; echo no; }; set -e; g; echo after`, "", "", 1},
		{"let", `let x=5+3; echo $x; ((x++)); echo $x`, "8\n9\n", "", 0},
		{"getopts", `f() { while getopts "ab:" o; do case $o in a) echo A;; b) echo B=$OPTARG;; esac; done; }; f -a -b val`, "A\nB=val\n", "", 0},
		{"eval", `eval 'echo evaluated $((1+1))'`, "evaluated 2\n", "", 0},
		{"trap-exit", `trap 'echo bye' EXIT; echo main`, "main\nbye\n", "", 0},
		{"parse-error", "echo a; if", "", "bash: -c: line 2: syntax error: unexpected end of file\n", 2},
		{"not-found", `nosuchcmd; echo $?`, "127\n", "bash: line 1: nosuchcmd: command not found\n", 0},
	})
}

func TestRedirectionsAndPipes(t *testing.T) {
	runGolden(t, []golden{
		{"stderr", `echo x >&2; echo y 2>&1 1>/dev/null`, "", "x\n", 0},
		{"append", `echo hi > f; echo more >> f; cat f`, "hi\nmore\n", "", 0},
		{"heredoc", "cat <<EOF\nline $((1+1))\nEOF\ncat <<'EOF'\nno $x\nEOF", "line 2\nno $x\n", "", 0},
		{"dash-heredoc", "cat <<-EOF\n\ttabbed\n\tEOF", "tabbed\n", "", 0},
		{"herestring", `read a b <<< "x y z"; echo "$a|$b"`, "x|y z\n", "", 0},
		{"pipeline", `printf "b\na\n" | sort`, "a\nb\n", "", 0},
		{"sigpipe", `yes | head -n 2; echo ${PIPESTATUS[@]}`, "y\ny\n141 0\n", "", 0},
		{"pipefail", `set -o pipefail; false | true; echo $?; true | false; echo $?`, "1\n1\n", "", 0},
		{"pipe-subshell", `x=0; echo 5 | read x; echo $x`, "0\n", "", 0},
		{"missing-file", `cat < nope; echo $?`, "1\n", "bash: line 1: nope: No such file or directory\n", 0},
		{"devstdin", `echo hi | cat /dev/stdin`, "hi\n", "", 0},
		{"exec-fd", `exec 3>&1; echo to3 >&3; exec 3>&-; echo $?`, "to3\n0\n", "", 0},
		{"both", `{ echo o; echo e >&2; } &> all; cat all`, "o\ne\n", "", 0},
	})
}

func TestPrintf(t *testing.T) {
	runGolden(t, []golden{
		{"widths", `printf "%5s|%-5s|%03d|%x|%.2f\n" ab cd 7 255 3.14159`, "   ab|cd   |007|ff|3.14\n", "", 0},
		{"reuse", `printf '%s=%s\n' a 1 b 2`, "a=1\nb=2\n", "", 0},
		{"quote", `printf "%q\n" "a b" "it's"`, "a\\ b\nit\\'s\n", "", 0},
		{"float", `printf '%5.1f|%-8.3e|%g\n' 3.14159 1234.5 0.0001`, "  3.1|1.234e+03|0.0001\n", "", 0},
		{"b", `printf '%b\n' 'a\tb'`, "a\tb\n", "", 0},
		{"v", `printf -v out "%03d" 5; echo $out`, "005\n", "", 0},
		{"invalid", `printf '%d\n' abc`, "0\n", "bash: line 1: printf: abc: invalid number\n", 1},
		{"char", `printf '%c%c\n' hello world`, "hw\n", "", 0},
	})
}

func TestProcessesAndTime(t *testing.T) {
	runGolden(t, []golden{
		{"bg-wait", `sleep 5 & echo started; wait $!; echo $?`, "started\n0\n", "", 0},
		{"kill", `sleep 100 & kill $!; wait $!; echo $?`, "143\n", "", 0},
		{"trap-usr1", `trap 'echo caught' USR1; kill -USR1 $$; echo after`, "caught\nafter\n", "", 0},
		{"jobs", `sleep 3 & jobs; wait`, "[1]+  Running                 sleep 3 &\n", "", 0},
		{"pids", `echo $$ $BASHPID; (echo $BASHPID)`, "1 1\n2\n", "", 0},
		{"kill-l", `kill -l 15; kill -l TERM`, "TERM\n15\n", "", 0},
	})
}

func TestBuiltinsMisc(t *testing.T) {
	runGolden(t, []golden{
		{"type", `type echo; type -t ls; f(){ :; }; type -t f`, "echo is a shell builtin\nfile\nfunction\n", "", 0},
		{"command-v", `command -v ls; command -v cd; command -v nosuch; echo $?`, "/usr/bin/ls\ncd\n1\n", "", 0},
		{"cd", `cd /tmp && pwd; cd /nonexistent; echo $?`, "/tmp\n1\n", "bash: line 1: cd: /nonexistent: No such file or directory\n", 0},
		{"test", `[ 1 -eq 1 -a 2 -eq 2 ] && echo both; [ a = b; echo $?; [ 1 -eq ]; echo $?`, "both\n2\n2\n",
			"bash: line 1: [: missing `]'\nbash: line 1: [: 1: unary operator expected\n", 0},
		{"echo-e", `echo -e "a\tb"; echo -n x; echo; echo $'\x41'`, "a\tb\nx\nA\n", "", 0},
		{"source", `echo 'echo sourced $1' > s.sh; . ./s.sh arg`, "sourced arg\n", "", 0},
		{"script", "printf '#!/bin/bash\\necho script $1\\n' > x.sh; chmod +x x.sh; ./x.sh hi; bash x.sh ho", "script hi\nscript ho\n", "", 0},
		{"sh-c", `sh -c 'echo $0 $1' zero one; bash -c 'exit 7'; echo $?`, "zero one\n7\n", "", 0},
		{"export", `export E=1; bash -c 'echo $E'; F=2 bash -c 'echo $F'; echo "[$F]"`, "1\n2\n[]\n", "", 0},
		{"alias", "shopt -s expand_aliases\nalias ll='echo listing'\nll x", "listing x\n", "", 0},
		{"umask", `umask; umask 077; umask`, "0022\n0077\n", "", 0},
	})
}

func TestUnsupportedIsLoud(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	r := env.Run(context.Background(), `coproc cat; echo $?`, nil)
	if !strings.Contains(string(r.Stderr), "not supported") || len(r.Unsupported) == 0 {
		t.Fatalf("stderr=%q unsupported=%v", r.Stderr, r.Unsupported)
	}
}

func TestBashDetails(t *testing.T) {
	runGolden(t, []golden{
		{"arith-recursive", `x="1+2"; echo $((x*2)) $(( $(printf '1+%s' 2) ))`, "6 3\n", "", 0},
		{"arith-base", `echo $((08))`, "", "bash: line 1: 08: value too great for base (error token is \"08\")\n", 1},
		{"anchored", `x=foo; echo ${x/#f/F} ${x/%o/O} ${x/#o/O}`, "Foo foO foo\n", "", 0},
		{"expand-before-redirect", `echo $(echo hi >&2) 2>/dev/null`, "\n", "hi\n", 0},
		{"wait-n", `sleep 2 & sleep 1 & wait -n; echo first $SECONDS; wait; echo all $SECONDS`, "first 1\nall 2\n", "", 0},
		{"bash-s", `bash -s arg1 <<< 'echo "got $1"'`, "got arg1\n", "", 0},
		{"child-pid", `bash -c 'kill -9 $$'; echo $?`, "137\n", "bash: line 1:     2 Killed                  bash -c 'kill -9 $$'\n", 0},
		{"assoc-order", `declare -A m=([b]=2 [a]=1); echo "${m[@]}" "${!m[@]}" ${#m[@]}`, "2 1 b a 2\n", "", 0},
		{"echo-octal", `echo -e '\0101|\101'`, "A|\\101\n", "", 0},
		{"procsubst", `diff <(printf 'a\nb\n') <(printf 'a\nc\n'); while read -r l; do echo "got $l"; done < <(echo x)`,
			"2c2\n< b\n---\n> c\ngot x\n", "", 0},
		{"open-heredoc", "cat <<EOF\nbody", "body\n", "bash: line 2: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n", 0},
		{"declare-f", `f() { echo hi; }; declare -f f`, "f () \n{ \n    echo hi\n}\n", "", 0},
		{"umask-create", `umask 027; : > f; stat -c %a f`, "640\n", "", 0},
		{"argmax", `cat $(seq 1 400000) 2>&1 | head -c 40; echo`, "bash: line 1: cat: Argument list too lon\n", "", 0},
		{"return-outside", `return 3`, "", "bash: line 1: return: can only `return' from a function or sourced script\n", 2},
	})
}
