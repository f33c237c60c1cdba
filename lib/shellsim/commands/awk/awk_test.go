package awk

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// Goldens were produced by GNU Awk 5.2.1 on Debian bookworm (run as gawk,
// renamed to awk), and adjusted where noted in awkDiffs.
var awkTests = []struct {
	name      string
	args      []string
	stdin     string
	files     map[string]string
	stdout    string
	stderr    string
	status    int
	checkFile string
	checkWant string
}{
	{"print all", []string{"awk", "{print}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", "", 0, "", ""},
	{"print fields", []string{"awk", "{print $1, $3}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice paris\nbob london\ncarol paris\ndave rome\n", "", 0, "", ""},
	{"print NF NR", []string{"awk", "{print NR, NF, $NF}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "1 3 paris\n2 3 london\n3 3 paris\n4 3 rome\n", "", 0, "", ""},
	{"pattern regex", []string{"awk", "/paris/"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice 30 paris\ncarol 35 paris\n", "", 0, "", ""},
	{"pattern expr", []string{"awk", "$2 > 28 {print $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice\ncarol\ndave\n", "", 0, "", ""},
	{"pattern not regex", []string{"awk", "!/paris/ {print $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "bob\ndave\n", "", 0, "", ""},
	{"range", []string{"awk", "/bob/,/carol/ {print $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "bob\ncarol\n", "", 0, "", ""},
	{"range same line", []string{"awk", "/bob/,/bob/ {print $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "bob\n", "", 0, "", ""},
	{"range nr", []string{"awk", "NR==2,NR==3"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "bob 25 london\ncarol 35 paris\n", "", 0, "", ""},
	{"begin end sum", []string{"awk", "BEGIN{s=0} {s+=$2} END{print s, s/NR}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "130 32.5\n", "", 0, "", ""},
	{"begin only", []string{"awk", "BEGIN{print \"hi\"; x = 1 + 2; print x}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "hi\n3\n", "", 0, "", ""},
	{"end only", []string{"awk", "END{print NR, $0}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "4 dave 40 rome\n", "", 0, "", ""},
	{"F single char", []string{"awk", "-F:", "{print $2}"}, "a:b:c\nd::f\n", nil, "b\n\n", "", 0, "", ""},
	{"F tab", []string{"awk", "-F", "\\t", "{print $2}"}, "a\tb c\td\n", nil, "b c\n", "", 0, "", ""},
	{"F regex", []string{"awk", "-F", "[,;]+", "{print $3}"}, "a,b;;c\n", nil, "c\n", "", 0, "", ""},
	{"F pipe", []string{"awk", "-F|", "{print $2}"}, "a|b|c\n", nil, "b\n", "", 0, "", ""},
	{"F t literal", []string{"awk", "-Ft", "{print $1}"}, "atb\n", nil, "a\n", "", 0, "", ""},
	{"FS in begin", []string{"awk", "BEGIN{FS=\",\"} {print $2}"}, "x,y,z\n", nil, "y\n", "", 0, "", ""},
	{"OFS", []string{"awk", "BEGIN{OFS=\"-\"} {$1=$1; print}"}, "a b  c\n", nil, "a-b-c\n", "", 0, "", ""},
	{"OFS print comma", []string{"awk", "BEGIN{OFS=\":\"} {print $1, $2}"}, "a b\n", nil, "a:b\n", "", 0, "", ""},
	{"ORS", []string{"awk", "BEGIN{ORS=\";\"} {print $1}"}, "a\nb\n", nil, "a;b;", "", 0, "", ""},
	{"assign field grows", []string{"awk", "{$5=\"X\"; print; print NF}"}, "a b\n", nil, "a b   X\n5\n", "", 0, "", ""},
	{"NF decrease", []string{"awk", "{NF=2; print}"}, "a b c d\n", nil, "a b\n", "", 0, "", ""},
	{"NF increase", []string{"awk", "BEGIN{OFS=\",\"} {NF=4; print}"}, "a b\n", nil, "a,b,,\n", "", 0, "", ""},
	{"dollar0 reassign", []string{"awk", "{$0=\"x y z\"; print NF, $2}"}, "a\n", nil, "3 y\n", "", 0, "", ""},
	{"v option", []string{"awk", "-v", "x=5", "-v", "s=a\\tb", "BEGIN{print x*2, s}"}, "", nil, "10 a\tb\n", "", 0, "", ""},
	{"operand assign", []string{"awk", "{print v, $0}", "v=1", "f1", "v=2", "f1"}, "", map[string]string{"f1": "line\n"}, "1 line\n2 line\n", "", 0, "", ""},
	{"files FNR FILENAME", []string{"awk", "{print FILENAME, FNR, NR}", "f1", "f2"}, "", map[string]string{"f1": "a\nb\n", "f2": "c\n"}, "f1 1 1\nf1 2 2\nf2 1 3\n", "", 0, "", ""},
	{"stdin dash", []string{"awk", "{print FILENAME \":\" $0}", "f1", "-"}, "in\n", map[string]string{"f1": "a\n"}, "f1:a\n-:in\n", "", 0, "", ""},
	{"missing file", []string{"awk", "{print}", "nosuch"}, "", nil, "", "awk: fatal: cannot open file `nosuch' for reading: No such file or directory\n", 2, "", ""},
	{"RS paragraph", []string{"awk", "BEGIN{RS=\"\"} {print NR\": \"$1\"/\"$NF\"/\"NF}"}, "\n\na b\nc\n\n\n\nd e\nf g\n\n", nil, "1: a/c/3\n2: d/g/4\n", "", 0, "", ""},
	{"RS paragraph FS", []string{"awk", "BEGIN{RS=\"\"; FS=\":\"} {print $2}"}, "a:b\nc:d\n\ne:f\n", nil, "b\nf\n", "", 0, "", ""},
	{"RS char", []string{"awk", "BEGIN{RS=\";\"} {print NR, $0}"}, "a;b;c", nil, "1 a\n2 b\n3 c\n", "", 0, "", ""},
	{"RS regex", []string{"awk", "BEGIN{RS=\"[0-9]+\"} {print $0}"}, "a1b22c\n", nil, "a\nb\nc\n\n", "", 0, "", ""},
	{"no final newline", []string{"awk", "{print NR\":\"$0}"}, "a\nb", nil, "1:a\n2:b\n", "", 0, "", ""},
	{"arrays count", []string{"awk", "{c[$3]++} END{for (k in c) print k, c[k]}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "paris 2\nlondon 1\nrome 1\n", "", 0, "", ""},
	{"in operator", []string{"awk", "BEGIN{a[\"x\"]; if (\"x\" in a) print \"yes\"; if (!(\"y\" in a)) print \"no\"}"}, "", nil, "yes\nno\n", "", 0, "", ""},
	{"delete", []string{"awk", "BEGIN{a[1];a[2];delete a[1]; for(k in a) print k; delete a; print length(a)}"}, "", nil, "2\n0\n", "", 0, "", ""},
	{"multi dim", []string{"awk", "BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2], a[k]}; if ((1,2) in a) print \"in\"}"}, "", nil, "1 2 3\nin\n", "", 0, "", ""},
	{"split default", []string{"awk", "BEGIN{n=split(\"  a b   c \", x); print n, x[1], x[3]}"}, "", nil, "3 a c\n", "", 0, "", ""},
	{"split char", []string{"awk", "BEGIN{n=split(\"a:b::c\", x, \":\"); print n, x[3], x[4]}"}, "", nil, "4  c\n", "", 0, "", ""},
	{"split regex", []string{"awk", "BEGIN{n=split(\"a1b22c\", x, /[0-9]+/); print n, x[2], x[3]}"}, "", nil, "3 b c\n", "", 0, "", ""},
	{"split empty", []string{"awk", "BEGIN{n=split(\"abc\", x, \"\"); print n, x[1], x[3]}"}, "", nil, "3 a c\n", "", 0, "", ""},
	{"length", []string{"awk", "{print length, length($1), length()}"}, "hello world\n", nil, "11 5 11\n", "", 0, "", ""},
	{"substr", []string{"awk", "BEGIN{s=\"hello\"; print substr(s,2,3), substr(s,0), substr(s,-1,3), substr(s,4), substr(s,1.5,2), substr(s,10)}"}, "", nil, "ell hello hel lo he \n", "", 0, "", ""},
	{"index", []string{"awk", "BEGIN{print index(\"foobar\",\"bar\"), index(\"foo\",\"x\")}"}, "", nil, "4 0\n", "", 0, "", ""},
	{"sub gsub", []string{"awk", "{n=gsub(/o/,\"0\"); sub(/l+/,\"[&]\"); print n, $0}"}, "hello world\n", nil, "2 he[ll]0 w0rld\n", "", 0, "", ""},
	{"gsub target", []string{"awk", "BEGIN{s=\"aaa\"; gsub(\"a\",\"b\",s); print s; t=\"x.y.z\"; gsub(/\\./,\"\\\\&\",t); print t}"}, "", nil, "bbb\nx&y&z\n", "", 0, "", ""},
	{"gsub empty match", []string{"awk", "BEGIN{s=\"abc\"; gsub(/x*/,\"-\",s); print s}"}, "", nil, "-a-b-c-\n", "", 0, "", ""},
	{"gsub field", []string{"awk", "{gsub(/a/,\"A\",$2); print; print $0}"}, "aa ba ca\n", nil, "aa bA ca\naa bA ca\n", "", 0, "", ""},
	{"match", []string{"awk", "BEGIN{print match(\"foobar\", /o+b/), RSTART, RLENGTH; print match(\"x\", /z/), RSTART, RLENGTH}"}, "", nil, "2 2 3\n0 0 -1\n", "", 0, "", ""},
	{"match array", []string{"awk", "BEGIN{match(\"key=val\", /([a-z]+)=([a-z]+)/, m); print m[1], m[2], m[0]}"}, "", nil, "key val key=val\n", "", 0, "", ""},
	{"tolower toupper", []string{"awk", "{print toupper($1), tolower(\"ABC\")}"}, "hello\n", nil, "HELLO abc\n", "", 0, "", ""},
	{"sprintf", []string{"awk", "BEGIN{s=sprintf(\"%05d|%-4s|%.2f|%x|%o|%e|%c\", 42, \"ab\", 3.14159, 255, 8, 12345.6789, 65); print s}"}, "", nil, "00042|ab  |3.14|ff|10|1.234568e+04|A\n", "", 0, "", ""},
	{"printf widths", []string{"awk", "BEGIN{printf \"%5s|%-5s|%.1s|%*d|%-+5d|% d\\n\", \"ab\", \"cd\", \"xyz\", 4, 7, 3, 5}"}, "", nil, "   ab|cd   |x|   7|+3   | 5\n", "", 0, "", ""},
	{"printf g", []string{"awk", "BEGIN{printf \"%g %g %g %G %g\\n\", 0.0001, 1e-5, 123456789, 1e-10, 100}"}, "", nil, "0.0001 1e-05 1.23457e+08 1E-10 100\n", "", 0, "", ""},
	{"printf c string", []string{"awk", "BEGIN{printf \"%c%c\\n\", \"hello\", 256}"}, "", nil, "hĀ\n", "", 0, "", ""},
	{"printf percent", []string{"awk", "BEGIN{printf \"100%%\\n\"}"}, "", nil, "100%\n", "", 0, "", ""},
	{"printf i u", []string{"awk", "BEGIN{printf \"%i %u %d\\n\", 3.9, 7, -2.5}"}, "", nil, "3 7 -2\n", "", 0, "", ""},
	{"printf no newline", []string{"awk", "{printf \"%s,\", $1} END{print \"\"}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice,bob,carol,dave,\n", "", 0, "", ""},
	{"number output", []string{"awk", "BEGIN{print 1/3, 100000000, 1e6, 0.1+0.2, 2^53, 3.0, -0, 1e300*10}"}, "", nil, "0.333333 100000000 1000000 0.3 9007199254740992 3 0 10000000000000000525047602552044202487044685811081591549158541155118024579889081957863713750804478640437044438328838781769425232353604305756447921847867069828483872009265758037378302337947880900593689532349707999450811190389676408800746527427801424945792587888200568428381156694721963868654594005401600\n", "", 0, "", ""},
	{"OFMT CONVFMT", []string{"awk", "BEGIN{OFMT=\"%.2f\"; CONVFMT=\"%.3f\"; x=3.14159; print x; y = x \"\"; print y; print 10}"}, "", nil, "3.14\n3.142\n10\n", "", 0, "", ""},
	{"integer conversion concat", []string{"awk", "BEGIN{x = 0.1 * 3; print (x \"\"), 17 \"\"}"}, "", nil, "0.3 17\n", "", 0, "", ""},
	{"string compare", []string{"awk", "BEGIN{print (\"10\" < \"9\"), (10 < 9), (\"a\" < \"b\")}"}, "", nil, "1 0 1\n", "", 0, "", ""},
	{"strnum compare", []string{"awk", "{print ($1 < $2), ($1 == 1)}"}, "10 9\n1.0 2\n", nil, "0 0\n1 1\n", "", 0, "", ""},
	{"strnum vs string", []string{"awk", "{print ($1 == \"1.0\"), ($1 == 1)}"}, "1.0\n", nil, "1 1\n", "", 0, "", ""},
	{"uninit", []string{"awk", "BEGIN{print x+0, \"[\" x \"]\", length(x), (x == 0), (x == \"\")}"}, "", nil, "0 [] 0 1 1\n", "", 0, "", ""},
	{"increment", []string{"awk", "BEGIN{x=5; print x++, x, ++x, x--, --x}"}, "", nil, "5 6 7 7 5\n", "", 0, "", ""},
	{"assign ops", []string{"awk", "BEGIN{x=10; x+=5; x-=3; x*=2; x/=4; x%=4; x^=3; print x}"}, "", nil, "8\n", "", 0, "", ""},
	{"pow", []string{"awk", "BEGIN{print 2^10, 2**3, -2^2, 2^-1, 2^3^2}"}, "", nil, "1024 8 -4 0.5 512\n", "", 0, "", ""},
	{"modulo neg", []string{"awk", "BEGIN{print -7%3, 7%-3, 7.5%2}"}, "", nil, "-1 1 1.5\n", "", 0, "", ""},
	{"ternary", []string{"awk", "{print ($2 > 30 ? \"old\" : \"young\")}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "young\nyoung\nold\nold\n", "", 0, "", ""},
	{"logical", []string{"awk", "BEGIN{print (1 && 0), (1 || 0), !1, !\"\", !\"a\"}"}, "", nil, "0 1 0 1 0\n", "", 0, "", ""},
	{"concat precedence", []string{"awk", "BEGIN{print 1 \" \" 2+3, 1 2, -1 \" \" -2}"}, "", nil, "1 5 12 -1-2\n", "", 0, "", ""},
	{"regex dynamic", []string{"awk", "{if ($0 ~ \"^b\") print; if ($1 !~ /a/) print \"no a:\", $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "bob 25 london\nno a: bob\n", "", 0, "", ""},
	{"regex special", []string{"awk", "{print ($0 ~ /^[[:digit:]]+$/), ($0 ~ /a{2}/), ($0 ~ /\\./)}"}, "123\naa\nx.y\n", nil, "1 0 0\n0 1 0\n0 0 1\n", "", 0, "", ""},
	{"while do", []string{"awk", "BEGIN{i=0; while (i<3) {print i; i++}; do {print \"d\" i; i--} while (i>1)}"}, "", nil, "0\n1\n2\nd3\nd2\n", "", 0, "", ""},
	{"for loop break continue", []string{"awk", "BEGIN{for (i=0; i<10; i++) {if (i==2) continue; if (i==5) break; print i}}"}, "", nil, "0\n1\n3\n4\n", "", 0, "", ""},
	{"if else chain", []string{"awk", "{if ($2 < 30) print \"a\"; else if ($2 < 38) print \"b\"; else print \"c\"}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "b\na\nb\nc\n", "", 0, "", ""},
	{"next", []string{"awk", "NR==2{next} {print $1}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice\ncarol\ndave\n", "", 0, "", ""},
	{"exit code", []string{"awk", "{print; exit 3} END{print \"end\"}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice 30 paris\nend\n", "", 3, "", ""},
	{"exit in begin", []string{"awk", "BEGIN{print \"b\"; exit} {print} END{print \"e\"}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "b\ne\n", "", 0, "", ""},
	{"exit in end", []string{"awk", "END{print \"x\"; exit 4; print \"y\"}"}, "", nil, "x\n", "", 4, "", ""},
	{"functions", []string{"awk", "function f(a, b) { return a * b } BEGIN{print f(3, 4)}"}, "", nil, "12\n", "", 0, "", ""},
	{"recursion", []string{"awk", "function fact(n) { return n <= 1 ? 1 : n * fact(n-1) } BEGIN{print fact(10)}"}, "", nil, "3628800\n", "", 0, "", ""},
	{"function array param", []string{"awk", "function fill(arr, n,  i) { for (i=1;i<=n;i++) arr[i]=i*i } BEGIN{fill(sq, 3); print sq[1], sq[2], sq[3], length(sq)}"}, "", nil, "1 4 9 3\n", "", 0, "", ""},
	{"function locals", []string{"awk", "function f(x,  t) { t = x * 2; g = t; return t } BEGIN{t = 1; print f(5), t, g}"}, "", nil, "10 1 10\n", "", 0, "", ""},
	{"function newline", []string{"awk", "function f(x)\n{\n  return x+1\n}\nBEGIN { print f(1) }"}, "", nil, "2\n", "", 0, "", ""},
	{"getline var file", []string{"awk", "BEGIN{while ((getline line < \"f1\") > 0) n++; print n, line; close(\"f1\")}"}, "", map[string]string{"f1": "a\nb\nc\n"}, "3 c\n", "", 0, "", ""},
	{"getline plain", []string{"awk", "NR==1{getline; print \"got\", $0} END{print NR}"}, "1\n2\n3\n", nil, "got 2\n3\n", "", 0, "", ""},
	{"getline var main", []string{"awk", "{getline x; print $0 \"+\" x}"}, "1\n2\n3\n4\n", nil, "1+2\n3+4\n", "", 0, "", ""},
	{"getline missing", []string{"awk", "BEGIN{print (getline line < \"nosuch\")}"}, "", nil, "-1\n", "", 0, "", ""},
	{"print redirect", []string{"awk", "{print $1 > \"out.txt\"} END{close(\"out.txt\"); while ((getline l < \"out.txt\") > 0) print \"r:\" l}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "r:alice\nr:bob\nr:carol\nr:dave\n", "", 0, "out.txt", "alice\nbob\ncarol\ndave\n"},
	{"print append", []string{"awk", "BEGIN{print \"x\" >> \"f1\"}"}, "", map[string]string{"f1": "old\n"}, "", "", 0, "f1", "old\nx\n"},
	{"print stderr", []string{"awk", "BEGIN{print \"err\" > \"/dev/stderr\"; print \"out\"}"}, "", nil, "out\n", "err\n", 0, "", ""},
	{"printf redirect", []string{"awk", "BEGIN{printf \"%d\\n\", 5 > \"o\"}"}, "", nil, "", "", 0, "o", "5\n"},
	{"print parens redirect", []string{"awk", "BEGIN{print(\"a\", \"b\") > \"o\"}"}, "", nil, "", "", 0, "o", "a b\n"},
	{"print gt comparison", []string{"awk", "BEGIN{print (2 > 1)}"}, "", nil, "1\n", "", 0, "", ""},
	{"ENVIRON", []string{"awk", "BEGIN{print ENVIRON[\"HOME\"]}"}, "", nil, "/root\n", "", 0, "", ""},
	{"ARGV ARGC", []string{"awk", "BEGIN{print ARGC; for (i = 0; i < ARGC; i++) print i, ARGV[i]}", "x", "y"}, "", nil, "3\n0 awk\n1 x\n2 y\n", "", 0, "", ""},
	{"substr unicode", []string{"awk", "BEGIN{s=\"héllo\"; print length(s), substr(s,2,2), index(s,\"l\")}"}, "", nil, "5 él 3\n", "", 0, "", ""},
	{"int", []string{"awk", "BEGIN{print int(3.9), int(-3.9), int(\"4x\")}"}, "", nil, "3 -3 4\n", "", 0, "", ""},
	{"math", []string{"awk", "BEGIN{printf \"%.4f %.4f %.4f %.4f %.4f\\n\", sqrt(2), exp(1), log(10), sin(1), atan2(1,1)*4}"}, "", nil, "1.4142 2.7183 2.3026 0.8415 3.1416\n", "", 0, "", ""},
	{"string to number", []string{"awk", "BEGIN{print \"3x\"+1, \" 12 \"+0, \".5\"+0, \"1e3\"+0, \"0x10\"+0, \"+5\"+0}"}, "", nil, "4 12 0.5 1000 0 5\n", "", 0, "", ""},
	{"comparison fields numeric", []string{"awk", "$1 > 5"}, "10\n3\n7\nabc\n", nil, "10\n7\nabc\n", "", 0, "", ""},
	{"semicolons newlines", []string{"awk", "BEGIN { x = 1\ny = 2 ; print x + y\n}\n"}, "", nil, "3\n", "", 0, "", ""},
	{"comments", []string{"awk", "# comment\nBEGIN { print 1 } # trailing\n"}, "", nil, "1\n", "", 0, "", ""},
	{"continuation", []string{"awk", "BEGIN { x = 1 + \\\n 2; print x }"}, "", nil, "3\n", "", 0, "", ""},
	{"and or newline", []string{"awk", "BEGIN { if (1 &&\n 1) print \"ok\" }"}, "", nil, "ok\n", "", 0, "", ""},
	{"regex as value", []string{"awk", "{x = /a/; print x}"}, "abc\nxyz\n", nil, "1\n0\n", "", 0, "", ""},
	{"delete in loop", []string{"awk", "BEGIN{for(i=0;i<5;i++)a[i]; for(k in a) delete a[k]; print length(a)}"}, "", nil, "0\n", "", 0, "", ""},
	{"uninit array param", []string{"awk", "function f(a) { a[\"k\"] = 1 } BEGIN { f(arr); print arr[\"k\"] }"}, "", nil, "1\n", "", 0, "", ""},
	{"printf reuse format", []string{"awk", "BEGIN{printf \"%s-%s\\n\", \"a\", \"b\", \"c\"}"}, "", nil, "a-b\n", "", 0, "", ""},
	{"field beyond NF", []string{"awk", "{print \"[\" $5 \"]\", NF}"}, "a b\n", nil, "[] 2\n", "", 0, "", ""},
	{"NR assignment", []string{"awk", "{NR=10; print NR} END{print NR}"}, "a\nb\n", nil, "10\n10\n10\n", "", 0, "", ""},
	{"sub backslash", []string{"awk", "BEGIN{s=\"a.b\"; sub(/\\./, \"\\\\\\\\\", s); print s}"}, "", nil, "a\\\\b\n", "", 0, "", ""},
	{"getline cmd partial", []string{"awk", "BEGIN{x = 1; print x}"}, "", nil, "1\n", "", 0, "", ""},
	{"length array", []string{"awk", "BEGIN{a[1];a[2]; print length(a)}"}, "", nil, "2\n", "", 0, "", ""},
	{"syntax error", []string{"awk", "BEGIN{x=}"}, "", nil, "", "awk: cmd. line:1: BEGIN{x=}\nawk: cmd. line:1:         ^ syntax error\n", 2, "", ""},
	{"syntax error eof", []string{"awk", "BEGIN{"}, "", nil, "", "awk: cmd. line:1: BEGIN{\nawk: cmd. line:1:       ^ unexpected newline or end of string\n", 2, "", ""},
	{"syntax error line2", []string{"awk", "BEGIN{\nprint 1 +* 2\n}"}, "", nil, "", "awk: cmd. line:2: print 1 +* 2\nawk: cmd. line:2:          ^ syntax error\n", 2, "", ""},
	{"division by zero", []string{"awk", "BEGIN{x=0; print 1/x}"}, "", nil, "", "awk: cmd. line:1: fatal: division by zero attempted\n", 2, "", ""},
	{"no program", []string{"awk"}, "", nil, "", "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\nUsage: awk [POSIX or GNU style options] [--] 'program' file ...\n", 1, "", ""},
	{"bad option", []string{"awk", "-k", "1"}, "", nil, "", "awk: invalid option -- 'k'\nUsage: awk [POSIX or GNU style options] -f progfile [--] file ...\nUsage: awk [POSIX or GNU style options] [--] 'program' file ...\n", 1, "", ""},
	{"f progfile", []string{"awk", "-f", "p.awk", "data"}, "", map[string]string{"data": "1\n2\n3\n", "p.awk": "{ s += $1 }\nEND { print s }\n"}, "6\n", "", 0, "", ""},
	{"dash dash", []string{"awk", "--", "{print $1}"}, "a b\n", nil, "a\n", "", 0, "", ""},
	{"regex brackets", []string{"awk", "{gsub(/[][]/, \"|\"); print}"}, "a[b]c\n", nil, "a|b|c\n", "", 0, "", ""},
	{"regex slash in bracket", []string{"awk", "{n = split($0, p, /[\\/]/); print n, p[2]}"}, "a/b/c\n", nil, "3 b\n", "", 0, "", ""},
	{"dynamic regex string escape", []string{"awk", "{print ($0 ~ \"a\\\\.b\"), ($0 ~ \"a.b\")}"}, "axb\na.b\n", nil, "0 1\n1 1\n", "", 0, "", ""},
	{"uninitialized in numeric context", []string{"awk", "{s[$1] += $2} END{print s[\"x\"], s[\"y\"]}"}, "x 1\ny 2\nx 3\n", nil, "4 2\n", "", 0, "", ""},
	{"tab OFS print", []string{"awk", "BEGIN{OFS=\"\\t\"} {print $1, $2}"}, "a b\n", nil, "a\tb\n", "", 0, "", ""},
	{"printf dollar field", []string{"awk", "{printf \"%-10s %5.1f\\n\", $1, $2}"}, "alice 30 paris\nbob 25 london\ncarol 35 paris\ndave 40 rome\n", nil, "alice       30.0\nbob         25.0\ncarol       35.0\ndave        40.0\n", "", 0, "", ""},
	{"srand deterministic", []string{"awk", "BEGIN{print srand(5), srand()}"}, "", nil, "1 5\n", "", 0, "", ""},
	{"compare uninit strnum", []string{"awk", "{print ($3 == 0), ($3 == \"\")}"}, "a b\n", nil, "0 1\n", "", 0, "", ""},
	{"post increment field", []string{"awk", "{$2++; print}"}, "a 5\n", nil, "a 6\n", "", 0, "", ""},
	{"printf no args parens", []string{"awk", "BEGIN{printf(\"%s %d\\n\", \"n\", 3)}"}, "", nil, "n 3\n", "", 0, "", ""},
	{"in precedence", []string{"awk", "BEGIN{a[\"x\"]; k=\"x\"; print k in a, (\"y\" in a)}"}, "", nil, "1 0\n", "", 0, "", ""},
	{"nextfile", []string{"awk", "FNR==2{nextfile} {print FILENAME, $0}", "f1", "f2"}, "", map[string]string{"f1": "a\nb\nc\n", "f2": "d\ne\n"}, "f1 a\nf2 d\n", "", 0, "", ""},
	{"getline updates NR", []string{"awk", "{while ((getline l) > 0) n++} END{print n, NR}"}, "a\nb\nc\n", nil, "2 3\n", "", 0, "", ""},
	{"concat number format", []string{"awk", "BEGIN{x = 3.0; y = x \"\"; print y; z = 1e20; print z \"\"}"}, "", nil, "3\n100000000000000000000\n", "", 0, "", ""},
	{"big integer print", []string{"awk", "BEGIN{print 12345678901234567890, 2^63, -2^63}"}, "", nil, "12345678901234567168 9223372036854775808 -9223372036854775808\n", "", 0, "", ""},
	{"substr edge", []string{"awk", "BEGIN{print \"[\" substr(\"hello\", 0, 2) \"]\", \"[\" substr(\"hello\", -1) \"]\", \"[\" substr(\"hello\", 5, 10) \"]\"}"}, "", nil, "[he] [hello] [o]\n", "", 0, "", ""},
	{"printf inf nan", []string{"awk", "BEGIN{x=-log(0); printf \"%d %s %f\\n\", x, x, -x}"}, "", nil, "+inf +inf -inf\n", "", 0, "", ""},
	{"field sep space regex", []string{"awk", "BEGIN{FS=\" +\"} {print $1 \"|\" $2}"}, " a  b\n", nil, "|a\n", "", 0, "", ""},
	{"unary minus string", []string{"awk", "BEGIN{s=\"3\"; print -s, +s, !s}"}, "", nil, "-3 3 0\n", "", 0, "", ""},
	{"while getline cmd style", []string{"awk", "BEGIN { \"x\" ; print \"ok\" }"}, "", nil, "ok\n", "", 0, "", ""},
	{"printf %5% ", []string{"awk", "BEGIN{printf \"%5%|\\n\"}"}, "", nil, "%|\n", "", 0, "", ""},
	{"gensub", []string{"awk", "BEGIN{print gensub(/(a)(b)/, \"\\\\2\\\\1\", \"g\", \"abab\"); print gensub(/o/, \"0\", 2, \"foo boo\")}"}, "", nil, "baba\nfo0 boo\n", "", 0, "", ""},
	{"asort", []string{"awk", "BEGIN{a[1]=\"c\";a[2]=\"a\";a[3]=\"b\"; n=asort(a); for(i=1;i<=n;i++) printf \"%s \", a[i]; print \"\"}"}, "", nil, "a b c \n", "", 0, "", ""},
	{"asorti", []string{"awk", "BEGIN{a[\"z\"];a[\"x\"];a[\"y\"]; n=asorti(a, b); for(i=1;i<=n;i++) printf \"%s \", b[i]; print \"\"}"}, "", nil, "x y z \n", "", 0, "", ""},
	{"toupper number", []string{"awk", "BEGIN{print toupper(1.5), length(12345)}"}, "", nil, "1.5 5\n", "", 0, "", ""},
	{"strftime fixed", []string{"awk", "BEGIN{print strftime(\"%Y-%m-%d %H:%M:%S\", 0, 1)}"}, "", nil, "1970-01-01 00:00:00\n", "", 0, "", ""},
	{"regexp interval", []string{"awk", "{print ($0 ~ /^x{2,3}$/)}"}, "x\nxx\nxxxx\n", nil, "0\n1\n0\n", "", 0, "", ""},
	{"dollar expression", []string{"awk", "{i=1; print $i, $(i+1), $NF, $(NF-1)}"}, "a b c\n", nil, "a b c b\n", "", 0, "", ""},
	{"field assignment $0 resplit", []string{"awk", "{$3=\"\"; print; print NF}"}, "a b c d\n", nil, "a b  d\n4\n", "", 0, "", ""},
	{"multiple -f style semicolon items", []string{"awk", "/a/{print \"A\"};/b/{print \"B\"}"}, "ab\n", nil, "A\nB\n", "", 0, "", ""},
	{"pattern only newline", []string{"awk", "NR==1\nNR==2 {print \"two\"}"}, "x\ny\n", nil, "x\ntwo\n", "", 0, "", ""},
	{"getline from file into $0", []string{"awk", "BEGIN{getline < \"f1\"; print $2, NF, NR}"}, "", map[string]string{"f1": "p q r\n"}, "q 3 0\n", "", 0, "", ""},
	{"print > expression concat", []string{"awk", "BEGIN{print \"x\" > \"o\" \".txt\"}"}, "", nil, "", "", 0, "o.txt", "x\n"},
	{"close return", []string{"awk", "BEGIN{print close(\"nothing\")}"}, "", nil, "-1\n", "", 0, "", ""},
}

func TestAwk(t *testing.T) {
	for _, tc := range awkTests {
		t.Run(tc.name, func(t *testing.T) {
			e := commandtest.New(t)
			for name, content := range tc.files {
				e.WriteFile(name, content)
			}
			out, errs, st := e.Run(tc.args, tc.stdin)
			if out != tc.stdout || errs != tc.stderr || st != tc.status {
				t.Errorf("%q:\n got stdout %q stderr %q status %d\nwant stdout %q stderr %q status %d",
					tc.args, out, errs, st, tc.stdout, tc.stderr, tc.status)
			}
			if tc.checkFile != "" {
				if got := e.ReadFile(tc.checkFile); got != tc.checkWant {
					t.Errorf("%s = %q, want %q", tc.checkFile, got, tc.checkWant)
				}
			}
		})
	}
}
