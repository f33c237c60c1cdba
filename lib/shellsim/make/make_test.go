package make_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

type makeCase struct {
	name   string
	files  map[string]string
	script string
	stdout string
	stderr string // substring
}

var cases = []makeCase{
	{name: "basic", files: map[string]string{"Makefile": "all: hello.txt\n\thello:\n\nhello.txt:\n\techo hi > $@\n\t@echo built $@\n"},
		script: "make hello.txt; cat hello.txt; make hello.txt; echo st=$?",
		stdout: "echo hi > hello.txt\nbuilt hello.txt\nhi\nmake: 'hello.txt' is up to date.\nst=0\n"},
	{name: "variables", files: map[string]string{"Makefile": "A = one\nB := $(A) two\nA = uno\nC ?= three\nC ?= four\nD = x\nD += y\nE = $(A)\n.PHONY: show\nshow:\n\t@echo '$(A)|$(B)|$(C)|$(D)|$(E)|$$HOME'\n"},
		script: "make; make A=cmd", stdout: "uno|one two|three|x y|uno|$HOME\ncmd|cmd two|three|x y|cmd|$HOME\n"},
	{name: "automatic", files: map[string]string{"Makefile": "out: a.in b.in a.in\n\t@echo '$@ <$<> [$^] {$+}'\na.in b.in:\n\t@touch $@\n"},
		script: "make", stdout: "out <a.in> [a.in b.in] {a.in b.in a.in}\n"},
	{name: "pattern", files: map[string]string{"Makefile": "SRCS := $(wildcard src/*.c)\nOBJS := $(patsubst src/%.c,build/%.o,$(SRCS))\nall: $(OBJS)\n\t@echo linked $^\nbuild/%.o: src/%.c\n\t@mkdir -p $(@D)\n\t@echo cc $< -o $@ stem=$*\n\t@cp $< $@\n", "src/a.c": "a", "src/b.c": "b"},
		script: "make; ls build", stdout: "cc src/a.c -o build/a.o stem=a\ncc src/b.c -o build/b.o stem=b\nlinked build/a.o build/b.o\na.o\nb.o\n"},
	{name: "functions", files: map[string]string{"Makefile": "L = b a c a\n.PHONY: f\nf:\n\t@echo $(sort $(L)) $(words $(L)) $(word 2,$(L)) $(firstword $(L)) $(lastword $(L))\n\t@echo $(subst a,X,$(L)) $(filter a c,$(L)) $(filter-out a,$(L)) $(strip   x   y  )\n\t@echo $(notdir src/x.c y.h) $(dir src/x.c y.h) $(basename a/b.c d) $(suffix a/b.c d.tar.gz)\n\t@echo $(addprefix p-,x y) $(addsuffix .o,x y) $(foreach v,1 2 3,[$(v)]) $(if $(L),yes,no) $(if ,yes,no)\n\t@echo $(shell echo from shell) $(L:a=z) $(patsubst %.c,%.o,x.c y.c) $(join a b,1 2)\n"},
		script: "make", stdout: "a b c 4 a b a\nb X c X a c a b c x y\nx.c y.h src/ ./ a/b d .c .gz\np-x p-y x.o y.o [1] [2] [3] yes no\nfrom shell b z c z x.o y.o a1 b2\n"},
	{name: "phony-nothing", files: map[string]string{"Makefile": ".PHONY: all\nall:\n"},
		script: "make", stdout: "make: Nothing to be done for 'all'.\n"},
	{name: "failure", files: map[string]string{"Makefile": "all: a b\na:\n\t@echo in a\n\tfalse\nb:\n\t@echo in b\n"},
		script: "make; echo st=$?; make -k; echo st=$?", stdout: "in a\nfalse\nst=2\nin a\nfalse\nin b\nst=2\n",
		stderr: "make: *** [Makefile:4: a] Error 1"},
	{name: "ignored-error", files: map[string]string{"Makefile": "all:\n\t-false\n\t@echo after\n"},
		script: "make; echo st=$?", stdout: "false\nafter\nst=0\n", stderr: "make: [Makefile:2: all] Error 1 (ignored)"},
	{name: "no-rule", files: map[string]string{"Makefile": "all: missing.h\n\t@echo never\n"},
		script: "make; echo st=$?", stdout: "st=2\n", stderr: "make: *** No rule to make target 'missing.h', needed by 'all'.  Stop."},
	{name: "no-makefile", script: "make; echo st=$?", stdout: "st=2\n", stderr: "make: *** No targets specified and no makefile found.  Stop."},
	{name: "dry-run", files: map[string]string{"Makefile": "all:\n\t@echo one\n\techo two > f\n"},
		script: "make -n; ls f 2>/dev/null; echo end", stdout: "echo one\necho two > f\nend\n"},
	{name: "silent", files: map[string]string{"Makefile": "all:\n\techo quiet\n"}, script: "make -s", stdout: "quiet\n"},
	{name: "recursive", files: map[string]string{"Makefile": "all:\n\t@$(MAKE) -C sub X=1\n", "sub/Makefile": "all:\n\t@echo sub X=$(X) level=$(MAKELEVEL)\n"},
		script: "make", stdout: "make[1]: Entering directory '/work/sub'\nsub X=1 level=1\nmake[1]: Leaving directory '/work/sub'\n"},
	{name: "dash-C", files: map[string]string{"d/Makefile": "x:\n\t@echo in $(CURDIR)\n"},
		script: "make -C d", stdout: "make: Entering directory '/work/d'\nin /work/d\nmake: Leaving directory '/work/d'\n"},
	{name: "conditionals", files: map[string]string{"Makefile": "MODE = debug\nifeq ($(MODE),debug)\nFLAGS = -g\nelse\nFLAGS = -O2\nendif\nifdef UNSET\nX = set\nelse\nX = unset\nendif\nifneq \"$(MODE)\" \"release\"\nY = notrel\nendif\nt:\n\t@echo $(FLAGS) $(X) $(Y)\n"},
		script: "make; make MODE=release", stdout: "-g unset notrel\n-O2 unset\n"},
	{name: "include-export", files: map[string]string{"Makefile": "include vars.mk\nexport GREETING\nt:\n\t@echo $$GREETING $(NAME)\n", "vars.mk": "GREETING = hello\nNAME = world\n"},
		script: "make", stdout: "hello world\n"},
	{name: "rebuild-newer", files: map[string]string{"Makefile": "out: in\n\t@echo rebuild\n\t@cp in out\n", "in": "x"},
		script: "make; make; touch -d '2001-01-01' out; make", stdout: "rebuild\nmake: 'out' is up to date.\nrebuild\n"},
	{name: "missing-separator", files: map[string]string{"Makefile": "all:\n    echo spaces\n"},
		script: "make; echo st=$?", stdout: "st=2\n", stderr: "Makefile:2: *** missing separator.  Stop."},
	{name: "define-call", files: map[string]string{"Makefile": "greet = hi $(1) and $(2)\ndefine TWO\n@echo line1\n@echo line2\nendef\nt:\n\t@echo $(call greet,a,b)\n\t$(TWO)\n"},
		script: "make", stdout: "hi a and b\nline1\nline2\n"},
	// --eval is read after the command line's variables, before the makefile
	{name: "eval-option", files: map[string]string{"Makefile": "all:\n\t@echo $(X) $(Y)\n", "M2": "X=5\nall:\n\t@echo $(X) $(Y)\n"},
		script: "make --eval=X=1; make --eval Y=2; make -E Y=3 -EX=4; make --eval=X=1 X=2; make -f M2 --eval=X=1; make -f M2 --eval='override X=1'; make --eval='foo:\n\t@echo foo'; echo st=$?; make --eval='a b'; echo st=$?",
		stdout: "1\n2\n4 3\n2\n5\n1\nfoo\nst=0\nst=2\n", stderr: "make: *** missing separator.  Stop."},
}

func runShellsim(t *testing.T, c makeCase) (string, string) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	for p, content := range c.files {
		if err := env.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := env.Run(context.Background(), c.script, nil)
	return string(r.Stdout), string(r.Stderr)
}

func TestMake(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut := runShellsim(t, c)
			if out != c.stdout || !strings.Contains(errOut, c.stderr) {
				t.Fatalf("stdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant substring %q", out, c.stdout, errOut, c.stderr)
			}
		})
	}
}

// TestMakeAgainstGNU runs every case with the host's GNU make (4.3 here) in
// a temporary directory and compares stdout (paths mapped to /work).
func TestMakeAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("SHELLBOX_CI") == "1" {
			t.Fatal("SHELLBOX_CI=1 but GNU make is not installed: the make cases compare with it (build-essential)")
		}
		t.Log("GNU make is not installed: the make cases are checked against their recorded output only")
		return
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, content := range c.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
				os.WriteFile(filepath.Join(dir, p), []byte(content), 0o644)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", c.script)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/root", "LANG=C"}
			b, _ := cmd.Output()
			if ctx.Err() != nil {
				t.Fatalf("GNU make did not finish the case within a minute")
			}
			got := strings.ReplaceAll(string(b), dir, "/work")
			if got != c.stdout {
				t.Errorf("GNU make stdout:\n%s\nexpected (ShellSim):\n%s", got, c.stdout)
			}
		})
	}
}
