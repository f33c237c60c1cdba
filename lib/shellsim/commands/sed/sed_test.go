package sed

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// Goldens were produced by GNU sed 4.9 on Debian bookworm.
var sedTests = []struct {
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
	{"s basic", []string{"sed", "s/o/0/"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0, "", ""},
	{"s global", []string{"sed", "s/o/0/g"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0, "", ""},
	{"s nth", []string{"sed", "s/o/0/2"}, "foo boo\n", nil, "fo0 boo\n", "", 0, "", ""},
	{"s nth global", []string{"sed", "s/a/X/2g"}, "aaaa\n", nil, "aXXX\n", "", 0, "", ""},
	{"s print quiet", []string{"sed", "-n", "s/t/T/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "Two\nThree\n", "", 0, "", ""},
	{"s icase", []string{"sed", "s/O/_/Ig"}, "One two\n", nil, "_ne tw_\n", "", 0, "", ""},
	{"s groups bre", []string{"sed", "s/\\(t\\)\\(w\\)/\\2\\1/"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nwto\nthree\nfour\nfive\n", "", 0, "", ""},
	{"s groups ere", []string{"sed", "-E", "s/(t)(w|h)/[\\2\\1]/"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\n[wt]o\n[ht]ree\nfour\nfive\n", "", 0, "", ""},
	{"s amp", []string{"sed", "s/.*/<&> \\&/"}, "ab\n", nil, "<ab> &\n", "", 0, "", ""},
	{"s newline repl", []string{"sed", "s/ /\\n/g"}, "a b c\n", nil, "a\nb\nc\n", "", 0, "", ""},
	{"s case conv", []string{"sed", "s/\\w\\+/\\u&/g"}, "hello big world\n", nil, "Hello Big World\n", "", 0, "", ""},
	{"s upper range", []string{"sed", "s/\\(a*\\)\\(b*\\)/\\U\\1\\E-\\2/"}, "aabb\n", nil, "AA-bb\n", "", 0, "", ""},
	{"s lower", []string{"sed", "-E", "s/(.*)/\\L\\1/"}, "HeLLo\n", nil, "hello\n", "", 0, "", ""},
	{"s ul mix", []string{"sed", "-E", "s/(\\w+) (\\w+)/\\U\\l\\1 \\L\\u\\2/"}, "FOO bar\n", nil, "fOO Bar\n", "", 0, "", ""},
	{"s empty matches", []string{"sed", "s/x*/-/g"}, "abc\n", nil, "-a-b-c-\n", "", 0, "", ""},
	{"s star", []string{"sed", "s/a*/x/g"}, "baaac\n", nil, "xbxcx\n", "", 0, "", ""},
	{"s other delim", []string{"sed", "s|/usr|/opt|"}, "/usr/bin\n", nil, "/opt/bin\n", "", 0, "", ""},
	{"s escaped delim", []string{"sed", "s/\\//:/g"}, "a/b/c\n", nil, "a:b:c\n", "", 0, "", ""},
	{"s comma delim", []string{"sed", "s,a\\,b,X,"}, "a,b\n", nil, "X\n", "", 0, "", ""},
	{"s bre literal plus", []string{"sed", "s/a+b/X/"}, "a+b aab\n", nil, "X aab\n", "", 0, "", ""},
	{"s bre gnu plus", []string{"sed", "s/a\\+b/X/"}, "a+b aab\n", nil, "a+b X\n", "", 0, "", ""},
	{"s ere plus", []string{"sed", "-E", "s/a+b/X/"}, "a+b aab\n", nil, "a+b X\n", "", 0, "", ""},
	{"s interval bre", []string{"sed", "s/a\\{2,3\\}/X/"}, "aaaa\n", nil, "Xa\n", "", 0, "", ""},
	{"s interval ere", []string{"sed", "-r", "s/a{2}/X/g"}, "aaaaa\n", nil, "XXa\n", "", 0, "", ""},
	{"s bracket", []string{"sed", "s/[[:digit:]]\\+/N/g"}, "a1b22c333\n", nil, "aNbNcN\n", "", 0, "", ""},
	{"s bracket neg", []string{"sed", "s/[^a-c]/./g"}, "abcdef\n", nil, "abc...\n", "", 0, "", ""},
	{"s bracket close", []string{"sed", "s/[]x]/Y/g"}, "a]x\n", nil, "aYY\n", "", 0, "", ""},
	{"s anchors", []string{"sed", "s/^/> /;s/$/ </"}, "mid\n", nil, "> mid <\n", "", 0, "", ""},
	{"s caret mid literal", []string{"sed", "s/a^b/X/"}, "a^b\n", nil, "X\n", "", 0, "", ""},
	{"s dollar mid literal", []string{"sed", "s/a$b/X/"}, "a$b\n", nil, "X\n", "", 0, "", ""},
	{"s star first literal", []string{"sed", "s/*a/X/"}, "b*a\n", nil, "bX\n", "", 0, "", ""},
	{"s alternation bre", []string{"sed", "s/cat\\|dog/pet/g"}, "cat dog cow\n", nil, "pet pet cow\n", "", 0, "", ""},
	{"s word boundary", []string{"sed", "s/\\bis\\b/IS/g"}, "this is it\n", nil, "this IS it\n", "", 0, "", ""},
	{"s word lt gt", []string{"sed", "s/\\<is\\>/IS/g"}, "this is it\n", nil, "this IS it\n", "", 0, "", ""},
	{"s tab escape", []string{"sed", "s/\\t/<TAB>/"}, "a\tb\n", nil, "a<TAB>b\n", "", 0, "", ""},
	{"s dot", []string{"sed", "s/./X/3"}, "abcd\n", nil, "abXd\n", "", 0, "", ""},
	{"s longest alt", []string{"sed", "-E", "s/a|ab/X/"}, "abc\n", nil, "Xc\n", "", 0, "", ""},
	{"s w stdout", []string{"sed", "-n", "s/o/0/w /dev/stdout"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nf0ur\n", "", 0, "", ""},
	{"p and n", []string{"sed", "-n", "p"}, "x\ny\n", nil, "x\ny\n", "", 0, "", ""},
	{"d line", []string{"sed", "2d"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nthree\nfour\nfive\n", "", 0, "", ""},
	{"d range", []string{"sed", "2,4d"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nfive\n", "", 0, "", ""},
	{"d last", []string{"sed", "$d"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\nthree\nfour\n", "", 0, "", ""},
	{"print last", []string{"sed", "-n", "$p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "five\n", "", 0, "", ""},
	{"regex addr", []string{"sed", "-n", "/t/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\n", "", 0, "", ""},
	{"regex range", []string{"sed", "-n", "/two/,/four/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\nfour\n", "", 0, "", ""},
	{"regex range unclosed", []string{"sed", "-n", "/four/,/nomatch/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "four\nfive\n", "", 0, "", ""},
	{"line regex range", []string{"sed", "-n", "2,/o/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\nfour\n", "", 0, "", ""},
	{"zero regex range", []string{"sed", "-n", "0,/o/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\n", "", 0, "", ""},
	{"one regex range", []string{"sed", "-n", "1,/o/p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\n", "", 0, "", ""},
	{"step", []string{"sed", "-n", "1~2p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nthree\nfive\n", "", 0, "", ""},
	{"step zero first", []string{"sed", "-n", "0~2p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nfour\n", "", 0, "", ""},
	{"plus", []string{"sed", "-n", "/two/,+2p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\nfour\n", "", 0, "", ""},
	{"mult", []string{"sed", "-n", "2,~4p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\nfour\n", "", 0, "", ""},
	{"range backwards", []string{"sed", "-n", "3,1p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "three\n", "", 0, "", ""},
	{"negate", []string{"sed", "-n", "2!p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nthree\nfour\nfive\n", "", 0, "", ""},
	{"negate range", []string{"sed", "2,4!d"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\nfour\n", "", 0, "", ""},
	{"block", []string{"sed", "-n", "/o/{s/o/0/;p}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nf0ur\n", "", 0, "", ""},
	{"nested block", []string{"sed", "-n", "1,4{/t/{p}}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\n", "", 0, "", ""},
	{"block negate", []string{"sed", "/t/!{s/$/!/}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one!\ntwo\nthree\nfour!\nfive!\n", "", 0, "", ""},
	{"append one-liner", []string{"sed", "2a hello world"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\nhello world\nthree\nfour\nfive\n", "", 0, "", ""},
	{"insert one-liner", []string{"sed", "2i\\  indented"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\n  indented\ntwo\nthree\nfour\nfive\n", "", 0, "", ""},
	{"append classic", []string{"sed", "$a\\\nlast line\\\nsecond"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\nthree\nfour\nfive\nlast line\nsecond\n", "", 0, "", ""},
	{"change", []string{"sed", "2c changed"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nchanged\nthree\nfour\nfive\n", "", 0, "", ""},
	{"change range", []string{"sed", "2,4c gone"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ngone\nfive\n", "", 0, "", ""},
	{"change negate", []string{"sed", "2!c X"}, "one\ntwo\nthree\nfour\nfive\n", nil, "X\ntwo\nX\nX\nX\n", "", 0, "", ""},
	{"append then q", []string{"sed", "2{a after\nq}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\nafter\n", "", 0, "", ""},
	{"append text semicolon", []string{"sed", "1a foo; p"}, "x\n", nil, "x\nfoo; p\n", "", 0, "", ""},
	{"y", []string{"sed", "y/abc/xyz/"}, "aabbcc\n", nil, "xxyyzz\n", "", 0, "", ""},
	{"y newline", []string{"sed", "N;y/\\n/ /"}, "a\nb\n", nil, "a b\n", "", 0, "", ""},
	{"q", []string{"sed", "2q"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\n", "", 0, "", ""},
	{"q exit", []string{"sed", "2q5"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\ntwo\n", "", 5, "", ""},
	{"Q", []string{"sed", "2Q"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\n", "", 0, "", ""},
	{"equals", []string{"sed", "-n", "$="}, "one\ntwo\nthree\nfour\nfive\n", nil, "5\n", "", 0, "", ""},
	{"equals all", []string{"sed", "="}, "a\nb\n", nil, "1\na\n2\nb\n", "", 0, "", ""},
	{"l", []string{"sed", "-n", "l"}, "a\tb\\c\u0001\n", nil, "a\\tb\\\\c\\001$\n", "", 0, "", ""},
	{"l wrap", []string{"sed", "-n", "l 5"}, "abcdefghijkl\n", nil, "abcd\\\nefgh\\\nijkl$\n", "", 0, "", ""},
	{"l option", []string{"sed", "-l", "4", "-n", "l"}, "abcdefg\n", nil, "abc\\\ndef\\\ng$\n", "", 0, "", ""},
	{"n", []string{"sed", "n;d"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nthree\nfive\n", "", 0, "", ""},
	{"n at end", []string{"sed", "$!n;s/^/X/"}, "a\nb\nc\n", nil, "a\nXb\nXc\n", "", 0, "", ""},
	{"N join", []string{"sed", ":a;N;$!ba;s/\\n/,/g"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one,two,three,four,five\n", "", 0, "", ""},
	{"N odd", []string{"sed", "N;s/\\n/-/"}, "1\n2\n3\n", nil, "1-2\n3\n", "", 0, "", ""},
	{"N quiet odd", []string{"sed", "-n", "N;p"}, "1\n2\n3\n", nil, "1\n2\n", "", 0, "", ""},
	{"D P", []string{"sed", "$!N;P;D"}, "1\n2\n3\n", nil, "1\n2\n3\n", "", 0, "", ""},
	{"uniq idiom", []string{"sed", "$!N; /^\\(.*\\)\\n\\1$/!P; D"}, "a\na\nb\n", nil, "", "sed: sed back-reference in regex: not supported in shellsim\n", 1, "", ""},
	{"hold", []string{"sed", "-n", "1!G;h;$p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "five\nfour\nthree\ntwo\none\n", "", 0, "", ""},
	{"hold H x", []string{"sed", "-n", "H;${x;s/\\n/,/g;s/^,//;p}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one,two,three,four,five\n", "", 0, "", ""},
	{"g empty", []string{"sed", "g"}, "a\n", nil, "\n", "", 0, "", ""},
	{"t loop", []string{"sed", ":a;s/x//;ta"}, "xxaxx\n", nil, "a\n", "", 0, "", ""},
	{"t no reset", []string{"sed", "s/a/A/;t;s/$/!/"}, "a\nb\n", nil, "A\nb!\n", "", 0, "", ""},
	{"T", []string{"sed", "s/a/A/;T;s/$/!/"}, "a\nb\n", nil, "A!\nb\n", "", 0, "", ""},
	{"b label", []string{"sed", "/two/b skip;s/$/+/;:skip"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one+\ntwo\nthree+\nfour+\nfive+\n", "", 0, "", ""},
	{"b end", []string{"sed", "b;d"}, "keep\n", nil, "keep\n", "", 0, "", ""},
	{"label space", []string{"sed", ":x\ns/aa/a/\nt x"}, "aaaa\n", nil, "a\n", "", 0, "", ""},
	{"multiple e", []string{"sed", "-e", "s/a/b/", "-e", "s/b/c/"}, "a\n", nil, "c\n", "", 0, "", ""},
	{"e append split", []string{"sed", "-e", "1a\\", "-e", "foo"}, "x\n", nil, "x\nfoo\n", "", 0, "", ""},
	{"semicolons spaces", []string{"sed", " 1 d ; s/o/O/ ; "}, "one\ntwo\nthree\nfour\nfive\n", nil, "twO\nthree\nfOur\nfive\n", "", 0, "", ""},
	{"comment", []string{"sed", "# a comment\ns/t/T/ # trailing\n"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\nTwo\nThree\nfour\nfive\n", "", 0, "", ""},
	{"hash n", []string{"sed", "#n\n2p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\n", "", 0, "", ""},
	{"z null data", []string{"sed", "-z", "s/\\n/,/g"}, "a\nb\n", nil, "a,b,", "", 0, "", ""},
	{"no trailing newline", []string{"sed", "s/b/B/"}, "a\nb", nil, "a\nB", "", 0, "", ""},
	{"no trailing newline p", []string{"sed", "p"}, "a\nb", nil, "a\na\nb\nb", "", 0, "", ""},
	{"no trailing newline append", []string{"sed", "$a end"}, "a\nb", nil, "a\nb\nend\n", "", 0, "", ""},
	{"no trailing newline N", []string{"sed", "N"}, "a\nb", nil, "a\nb", "", 0, "", ""},
	{"empty input", []string{"sed", "p"}, "", nil, "", "", 0, "", ""},
	{"files", []string{"sed", "-n", "$p", "f1", "f2"}, "", map[string]string{"f1": "1\n2\n", "f2": "3\n4\n"}, "4\n", "", 0, "", ""},
	{"files separate", []string{"sed", "-s", "-n", "$p", "f1", "f2"}, "", map[string]string{"f1": "1\n2\n", "f2": "3\n4\n"}, "2\n4\n", "", 0, "", ""},
	{"files missing", []string{"sed", "p", "f1", "nosuch"}, "", map[string]string{"f1": "1\n"}, "1\n1\n", "sed: can't read nosuch: No such file or directory\n", 2, "", ""},
	{"stdin dash", []string{"sed", "s/^/>/", "f1", "-"}, "in\n", map[string]string{"f1": "1\n"}, ">1\n>in\n", "", 0, "", ""},
	{"no nl file join", []string{"sed", "p", "f1", "f2"}, "", map[string]string{"f1": "1", "f2": "2\n"}, "1\n1\n2\n2\n", "", 0, "", ""},
	{"F", []string{"sed", "F"}, "", map[string]string{"f1": "x\n"}, "", "", 0, "", ""},
	{"F stdin", []string{"sed", "1F"}, "x\n", nil, "-\nx\n", "", 0, "", ""},
	{"r file", []string{"sed", "1r f1"}, "a\nb\n", map[string]string{"f1": "INS\n"}, "a\nINS\nb\n", "", 0, "", ""},
	{"r missing", []string{"sed", "1r nosuch"}, "a\n", nil, "a\n", "", 0, "", ""},
	{"R file", []string{"sed", "R f1"}, "a\nb\nc\n", map[string]string{"f1": "1\n2\n"}, "a\n1\nb\n2\nc\n", "", 0, "", ""},
	{"w file", []string{"sed", "-n", "/o/w out.txt"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "", 0, "out.txt", "one\ntwo\nfour\n"},
	{"s w file", []string{"sed", "s/o/0/w out.txt"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0, "out.txt", "0ne\ntw0\nf0ur\n"},
	{"in place", []string{"sed", "-i", "s/a/b/", "f1"}, "", map[string]string{"f1": "a\na\n"}, "", "", 0, "f1", "b\nb\n"},
	{"in place suffix", []string{"sed", "-i.bak", "s/a/b/", "f1"}, "", map[string]string{"f1": "a\n"}, "", "", 0, "f1.bak", "a\n"},
	{"in place q", []string{"sed", "-i", "2q", "f1"}, "", map[string]string{"f1": "1\n2\n3\n"}, "", "", 0, "f1", "1\n2\n"},
	{"in place multiple", []string{"sed", "-i", "$s/$/ end/", "f1", "f2"}, "", map[string]string{"f1": "1\n2\n", "f2": "3\n"}, "", "", 0, "f1", "1\n2 end\n"},
	{"in place long opt", []string{"sed", "--in-place=.orig", "-e", "s/1/one/", "f1"}, "", map[string]string{"f1": "1\n"}, "", "", 0, "f1.orig", "1\n"},
	{"options after operand", []string{"sed", "s/a/b/", "f1", "-n"}, "", map[string]string{"f1": "a\n"}, "", "", 0, "", ""},
	{"long expression", []string{"sed", "--expression=s/a/b/", "--quiet", "--expression", "p"}, "a\n", nil, "b\n", "", 0, "", ""},
	{"f script", []string{"sed", "-f", "script.sed"}, "hello\n", map[string]string{"script.sed": "s/hello/bye/\n# c\ny/by/BY/\n"}, "BYe\n", "", 0, "", ""},
	{"empty regex reuse", []string{"sed", "/o/s//0/g"}, "one\ntwo\nthree\nfour\nfive\n", nil, "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0, "", ""},
	{"regex I addr", []string{"sed", "-n", "/ONE/Ip"}, "one\ntwo\nthree\nfour\nfive\n", nil, "one\n", "", 0, "", ""},
	{"custom delim addr", []string{"sed", "-n", "\\,t,p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "two\nthree\n", "", 0, "", ""},
	{"ere groups optional", []string{"sed", "-E", "s/(a)|b/[\\1]/g"}, "ab\n", nil, "[a][]\n", "", 0, "", ""},
	{"dot matches", []string{"sed", "N;s/a.b/X/"}, "a\nb\n", nil, "X\n", "", 0, "", ""},
	{"err unknown command", []string{"sed", "k"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 1: unknown command: `k'\n", 1, "", ""},
	{"err unknown s option", []string{"sed", "s/a/b/q"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 7: unknown option to `s'\n", 1, "", ""},
	{"err unterminated s", []string{"sed", "s/a/b"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 5: unterminated `s' command\n", 1, "", ""},
	{"err y lengths", []string{"sed", "y/abc/de/"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 9: strings for `y' command are different lengths\n", 1, "", ""},
	{"err missing command", []string{"sed", "1"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 1: missing command\n", 1, "", ""},
	{"err unmatched brace", []string{"sed", "{p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 0: unmatched `{'\n", 1, "", ""},
	{"err unexpected brace", []string{"sed", "p;}"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 3: unexpected `}'\n", 1, "", ""},
	{"err label", []string{"sed", "b nowhere"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: can't find label for jump to `nowhere'\n", 4, "", ""},
	{"err extra chars", []string{"sed", "pq"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 2: extra characters after command\n", 1, "", ""},
	{"err bad ref", []string{"sed", "s/a/\\1/"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 7: invalid reference \\1 on `s' command's RHS\n", 1, "", ""},
	{"err zero addr", []string{"sed", "0p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 2: invalid usage of line address 0\n", 1, "", ""},
	{"err a needs text", []string{"sed", "a"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\n", 1, "", ""},
	{"err second script", []string{"sed", "-e", "p", "-e", "k"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #2, char 1: unknown command: `k'\n", 1, "", ""},
	{"err bad option", []string{"sed", "-k", "p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: invalid option -- 'k'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n", 1, "", ""},
	{"err no script", []string{"sed"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n", 1, "", ""},
	{"err unterminated regex", []string{"sed", "/abc"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 4: unterminated address regex\n", 1, "", ""},
	{"err q two addr", []string{"sed", "1,2q"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 4: command only uses one address\n", 1, "", ""},
	{"err colon addr", []string{"sed", "1:a"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: -e expression #1, char 2: : doesn't want any addresses\n", 1, "", ""},
	{"err unknown long", []string{"sed", "--frob", "p"}, "one\ntwo\nthree\nfour\nfive\n", nil, "", "sed: unrecognized option '--frob'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n", 1, "", ""},
}

func TestSed(t *testing.T) {
	for _, tc := range sedTests {
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
