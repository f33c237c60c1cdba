package shellsim_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// errorCases are scripts whose shell errors must end (or not end) the
// script as in bash, with bash's exit status and diagnostics.
var errorCases = []struct{ name, src string }{
	{"qmark_word", "echo a; echo ${x:?nope}; echo b"},
	{"qmark_empty", "echo a; : ${x:?}; echo b"},
	{"qmark_unset_empty", "echo a; : ${x?}; echo b"},
	{"qmark_in_function", "f(){ : ${x:?bad}; echo in; }; f; echo b"},
	{"qmark_in_subshell", "( : ${x:?bad}; echo in ); echo st=$?; echo b"},
	{"nounset", "set -u; echo a; echo $zz; echo b"},
	{"nounset_in_function", "set -u; f(){ echo $zz; echo in; }; f; echo b"},
	{"nounset_in_subshell", "set -u; ( echo $zz; echo in ); echo st=$?; echo b"},
	{"readonly_assign", "readonly x=1; echo a; x=2; echo st=$?; echo b $x"},
	{"readonly_in_function", "readonly x=1; f(){ x=2; echo st=$?; echo in; }; f; echo b st=$?"},
	{"declare_r_assign", "declare -r y=1; echo a; y=3; echo st=$?; echo b"},
	{"readonly_cmd_prefix", "readonly x=1; x=2 true; echo st=$?; echo b"},
	{"readonly_cmd_prefix_exported", "readonly x=1; export x; x=2 bash -c 'echo $x'; echo st=$?"},
	{"readonly_declare", "readonly x=1; declare x=5; echo st=$?; echo b"},
	{"readonly_unset", "readonly x=1; unset x; echo st=$?; echo b"},
	{"readonly_for", "readonly x=1; for x in 1 2; do echo $x; done; echo st=$?; echo b"},
	{"readonly_read", "readonly x=1; echo hi | { read x; echo st=$?; }; echo b"},
	{"readonly_read_toplevel", "readonly x=1; read x <<< hi; echo st=$?; echo b"},
	{"readonly_printf_v", "readonly x=1; printf -v x hi; echo st=$?; echo b"},
	{"readonly_next_line", "readonly x=1\nx=2; echo same line\necho st=$? b $x"},
	{"readonly_in_function_next_line", "readonly x=1\nf(){ x=2; echo in; }\nf; echo same\necho st=$? b"},

	// Arithmetic errors: bash's wording, and the rest of the line is
	// abandoned (status 1) while the next lines run.
	{"div_zero", "echo a; echo $((1/0)); echo st=$?; echo b\necho st=$? c"},
	{"mod_zero", "x=5\necho $(( x % 0 ))\necho st=$? b"},
	{"div_assign", "x=5\necho $(( x /= 0 ))\necho st=$? x=$x"},
	{"div_token", "echo $(( 1 / (0) + 2 ))\necho $(( 1 ? 2 / 0 : 3 ))\necho $(( (1/0) ))\necho b"},
	{"exponent_negative", "echo $((2**-1))\necho $(( 2 ** (0-1) ))\necho st=$? b"},
	{"base_too_great", "echo $((08))\necho $((2#3))\necho b"},
	{"base_invalid", "echo $((65#3))\necho b"},
	{"base_constants", "echo $(( 64#@_ )) $(( 36#zZ ))\necho $(( 08 + 1 ))\necho $(( 0x1G ))\nx=08; echo $(( x + 1 ))\necho $(( 2# ))\necho $(( 37#Z ))\necho b"},
	{"arith_unknown_chars", "echo $(( @ 1 ))\necho $(( 1 @ ))\necho $(( 1 $ 2 ))\necho $(( ++ ))\necho $(( 1 +* 2 ))\necho $(( \"1\" + ))\necho b"},
	{"arith_value_expr", "x=1/0\necho $((x + 1))\necho b"},
	{"arith_array_elem", "a=(1 2)\necho $(( a[1] / 0 + 3 ))\necho b"},
	{"arith_expanded", "x=4\necho $(( $x / 0 ))\necho b"},
	{"arith_assignment_word", "x=$(( 1/0 ))\necho st=$? b"},
	{"arithcmd_div", "echo a; (( 1/0 )); echo st=$? b"},
	{"arithcmd_post_inc", "x=3; (( x++ / 0 ))\necho b $x"},
	{"let_div", "let 1/0 y=2; echo st=$? y=$y"},
	{"arith_in_function", "f(){ echo $((1/0)); echo in; }\nf; echo st=$?\necho b"},
	{"arith_in_subshell", "( echo $((1/0)); echo in ); echo st=$? b"},
	{"arith_in_cmdsubst", "x=$(echo $((1/0)); echo in); echo \"st=$? x=$x\""},
	{"arith_in_eval", "eval 'echo $((1/0)); echo in'; echo st=$? b"},
	{"arith_in_eval_lines", "echo x\n\neval \"echo a\necho \\$((1/0))\necho in\"\necho st=$? $LINENO"},
	{"arith_in_source", "printf 'echo s\\necho $((1/0)); echo in\\necho t\\n' > t3\n. ./t3\necho st=$? b"},
	{"arith_in_pipeline", "echo $((1/0)) | cat; echo st=$? b"},
	{"arith_in_background", "echo $((1/0)) & wait; echo st=$? b"},
	{"arith_in_if", "if true; then\n  echo $((1/0))\n  echo in\nfi\necho st=$? b"},
	{"arith_in_loop", "for i in 1 2; do echo $((i/0)); done; echo st=$? b\necho c"},
	{"arith_in_until_loop", "until false; do x=${y!}; done\necho c"},
	{"arith_in_cstyle_loop_body", "for ((;;)); do (( 1/0 )); echo $((1/0)); done\necho c"},
	{"arith_in_while_condition", "while echo $((1/0)); do echo in; done\necho c"},
	{"arith_in_nested_loops", "x=0; while (( x++ < 3 )); do echo $x; for i in 1 2; do echo ${i:1/0}; done; done\necho st=$? c"},
	{"arith_in_redirections", "echo > $((1/0))\necho hi > ${x!}\ncat <<< $((1/0))\necho c"},
	{"arith_errexit", "set -e\necho $((1/0))\necho st=$? b"},
	{"arith_in_test_clause", "[[ 1/0 -eq 1 ]]; echo st=$? b\n[[ 1 -eq \"1 +\" ]]; echo st=$?"},
	{"arith_in_substring", "x=abc; echo ${x:1/0}; echo st=$? b\necho c"},
	{"arith_in_for_cstyle", "for ((i=0; i<1/0; i++)); do echo $i; done; echo st=$? b\necho c"},
	{"arith_text_semantics", "x=1+2; echo $(( $x * 3 )) $(( x * 3 ))\ny=2+1; echo $(( --y )) $y; z=1+1; (( z += 2 )); echo $z\na=(1 2 3); i=1; echo $(( a[i+1] * \"2\" )) $(( ${a[0]} + $(echo 4) ))\necho $(( -- y )) $(( y ++ )) $y $(( ++ 0 ))"},
	{"arith_expansion_fails_once", "set -u; echo $(( $(echo hi >&2; echo 1) + $zz ))\necho b"},
	{"arith_recursion", "x=x; echo $((x))\nx=y; y=x; echo $((x + 1))\necho b"},
	{"arith_nounset", "set -u; echo $((zz+1))\necho b"},
	{"arith_integer_assign", "declare -i n; n=\"3 + \"; echo st=$? $n\necho x; n=1/0; echo y\necho b"},
	{"arith_subscript_read", "a=(1)\necho ${a[1/0]}; echo c\necho b"},
	{"arith_subscript_assign", "a=(1 2); a[1/0]=3; echo st=$? b\necho c"},
	{"arith_subscript_compound", "a=([1/0]=3); echo st=$? b\necho c"},
	{"arith_subscript_in_subshell", "( a=(1); echo ${a[1/0]}; echo in )\necho st=$?"},
	{"arith_in_exit_trap", "trap 'echo $((1/0)); echo in' EXIT\necho a"},

	// Errors the parser finds in arithmetic and ${...}: bash finds them
	// when the line runs, so the lines before run.
	{"arith_syntax_operand", "echo a\necho $((1 +)); echo b\necho st=$? c"},
	{"arith_syntax_pow", "echo a; echo $(( 2 ** )); echo b\necho c"},
	{"arith_syntax_cmd", "echo a; ((x = )); echo st=$? b"},
	{"arith_syntax_let_quoted", "echo a; let \"1 +\" y=2; echo st=$? b $y"},
	{"arith_syntax_let", "let 1+ ; echo st=$?"},
	{"arith_syntax_forms", "echo $(( 1 2 ))\necho $(( 1 @ 2 ))\necho $(( 1 ? 2 ))\necho $(( 1 = 2 ))\necho b"},
	{"arith_syntax_in_quotes", "echo \"$((1 +))\"; echo b\necho c"},
	{"arith_syntax_bracket", "echo $[1+]\necho b"},
	{"arith_syntax_expanded", "x=3\necho $(( $x + ))\necho b"},
	{"arith_syntax_in_function", "f(){ echo $(( 2 ** )); echo in; }; echo a; f; echo st=$? b\necho c"},
	{"arith_syntax_two", "echo $((1 +)) $((2 *))\necho b\necho $((3 -))\necho c"},
	{"arith_syntax_for_cond", "for ((i=0; i<; i++)); do :; done; echo st=$?\necho next"},
	{"arith_syntax_for_post", "for ((i=0; i<2; i+=)); do echo $i; done; echo st=$?\necho next"},
	{"arith_syntax_for_init", "for (( i=+ ; i<2; i++)); do echo $i; done; echo st=$?\necho next"},
	{"arith_syntax_subscript_assign", "a=(1 2); a[1+]=2; echo st=$?\necho next"},
	{"arith_syntax_subscript_append", "a=(1 2); a[ 1 * ]+=2; echo st=$? ${a[@]}\necho next"},
	{"arith_syntax_subscript_read", "a=(1 2); echo ${a[1+]}; echo st=$?\necho next"},
	{"empty_subscript_assign", "m[]=1; echo st=$?\necho b\nm[]+=1; echo c\nf(){ m[]=1; echo in; }; f; echo st=$?\n( m[]=1; echo in ); echo st=$?"},
	{"empty_subscript_declare", "declare m[]=1; echo st=$?; declare -A h; h[]=1; echo st=$?\necho b"},
	{"empty_subscript_builtins", "m[]=1 true; echo st=$?\nexport m[]=1; echo st=$?\nreadonly m[]=1; echo st=$?\nf(){ local m[]=1; echo st=$?; }; f\ntypeset m[]=1; echo st=$?"},
	// a negative subscript before the start warns and expands to nothing
	{"negative_subscript_read", "a=(1 2)\n\necho \"[${a[-5]}]\"\nx=$(echo \"${a[-5]}\")\n( : \"${a[-5]}\" )\nif true; then\n: ${a[-9]}\nfi\nfor i in 1; do : ${a[-9]}; done\necho $(( a[-9] )) st=$?\nx=a[-5]; echo \"[${!x}]\""},
	{"empty_subscript_read", "a=(1); echo \"${a[]}\" b; echo st=$?\necho b\necho ${a[]:-d}\necho \"${a[]#x}\" b\necho c"},
	{"blank_subscript", "m[ ]=1; declare -p m; a=(5 6); echo ${a[ ]} ${a[  ]}; declare -A h; h[ ]=1; declare -p h"},
	// bash numbers a command by where its parser was: after a command
	// name, the end of the next token; after an assignment or a
	// redirection, the end of that element; ((...)) at its end
	{"lines_multiline_command", "echo \"a\nb\nc\" \\\n $((1/0))\necho \\\n $((1/0))\necho a \\\nb \\\n$((1/0))\necho $((1/0)) \"a\nb\"\necho >/dev/null \"\n\" $((1/0))\n\"ec\nho\" $((1/0))\necho c"},
	{"lines_multiline_assignment", "x=\"a\nb\" y=$((1/0))\nx=1 \\\n y=2 \\\n z=$((1/0))\nx=1 \\\n echo $((1/0))\nx=$((1/0\n)) y=1\necho c"},
	{"lines_lineno", "echo $LINENO \"a\nb\" $LINENO\necho \\\n $LINENO\nx=\"a\nb\" y=$LINENO; echo $y\n((\nx=LINENO)); echo $x\nlet x=LINENO \"\n\"; echo $x\nf(){ local a=$LINENO \"\n\" b=$LINENO; echo $a $b; }\nf"},
	{"lines_in_compound", "for i in 1; do echo \"a\nb\" $((1/0)); done\nif true; then echo \"a\nb\" $((1/0)); fi\nf() { echo \"a\nb\" $((1/0)); }\nf\necho c"},
	// after a discarded command bash counts lines from that command's line
	{"lines_after_discard", "echo $((1/0)); echo a \\\nb\necho $LINENO\necho \"a\nb\" \\\n$((1/0))\necho $LINENO\nif true; then\necho $((1/0))\nfi\necho $LINENO\nf(){\necho $((1/0))\n}\n\nf\necho $LINENO\neval \"echo \\$((1/0))\n\"\necho $LINENO"},
	// eval and sourced files are reader loops of their own: their lines
	// count on from a discarded command's line too, and the caller's count
	// comes back when they return
	{"lines_after_discard_in_eval_and_source", `echo $((1/0)); echo \
a
eval 'echo e1 $LINENO
echo $((1/0)); echo \
b
echo e2 $LINENO
f(){
echo f $LINENO
}'
echo m $LINENO
f
g(){
eval 'echo $((1/0)); echo \
c
echo g2 $LINENO'
echo g3 $LINENO
}
g
echo m2 $LINENO
echo 'echo s1 $LINENO
echo $((1/0)); echo \
b
echo s2 $LINENO' > src3
. ./src3
echo m3 $LINENO
h(){ . ./src3; echo h $LINENO; }
h
echo m4 $LINENO`},
	// a function counts its lines (and names its file) as the parser did
	// where it was defined: before a discard, in eval, in a sourced file
	{"lines_of_functions_by_definition", `f(){
echo f $LINENO
}
echo $((1/0)); echo \
a
f
echo $LINENO
printf 'g(){\necho g $LINENO\necho $((1/0))\n}\n' > src2
. ./src2
g
eval 'h(){
echo h $LINENO
echo $((2/0))
}'
h
echo $LINENO`},
	{"lines_sourced_file_discards", `printf 'echo $LINENO\necho $((1/0)); echo a \\\nb\necho $LINENO\necho "a\nb" \\\n$((1/0))\necho $LINENO\nif true; then\necho $((1/0))\nfi\necho $LINENO\necho ${x!}\necho $LINENO\n' > src1
. ./src1
echo main $LINENO
f() { . ./src1; echo f $LINENO; }
f
echo $LINENO`},
	// command and process substitutions number their lines from the line
	// of the command they are in
	{"lines_in_substitutions", "echo $(echo $LINENO\necho $LINENO) $LINENO\necho \"a\nb\" $(echo $LINENO) $LINENO\nx=$(echo $LINENO\necho $LINENO); echo $x\necho `echo $LINENO\necho $LINENO` $LINENO\n( echo $LINENO\necho $LINENO )\ncat <(echo $LINENO\necho $LINENO)\nf() { echo $(echo $LINENO\necho $LINENO); }\nf\necho $(echo $((1/0))\necho $LINENO)\necho $LINENO"},
	// the text of an expression keeps its newlines
	{"arith_newlines", "echo $((\n1/0))\necho $((1\n/0))\nx=5; echo $(( x %\n  0 ))\n((\n1/0))\necho $[1\n/0]\nlet \"1/\n0\"; let \"1/ \n 0\"\necho $((1 +\n2 3))\necho c"},
	// $(( whose parentheses close without "))" is a command substitution
	// of a subshell; $(( (x) )) stays arithmetic
	{"dparen_cmdsubst", "echo $((echo hi); echo x)\necho $((echo hi) )\nx=$((cd /; pwd) | cat); echo $x\necho \"$((echo a)|tr a b)\" '$((x)' # $((1)\necho $((1+2)) $(( (1+2)*3 )) $(( (1) ) )"},
	{"dparen_arith_missing_paren", "echo $(( (echo hi) ))\necho b"},
	{"arith_single_quotes", "echo $(( 'a' + 1 ))\necho b"},
	{"indirect_invalid_name", "x=\"a b\"; echo ${!x}; echo st=$?\nx=; echo ${!x}\nunset x; echo ${!x}\necho c"},
	{"substring_negative_length", "x=abc; echo ${x:1:-5}; echo st=$?\necho ${x:1:-1} ${x: -2:-1} ${x:1:-2}\ny=-5; echo ${x:1:y}\necho ${x:1:-1-4}\necho c"},
	{"substring_negative_length_list", "a=(1 2); echo ${a[@]:1:-5}; echo st=$?\necho \"${a[@]:0:-1}\" c\nset -- a b c; echo ${@:1:-1}\necho c"},
	{"bad_substitution", "echo a; echo ${x!}; echo st=$? b\necho c"},
	{"bad_substitution_length_slice", "echo ${#x:1}\necho next"},
	// an empty or blank offset or length is 0; ${x:} is a bad substitution
	{"substring_empty_parts", "x=abcdef; echo ${x:1:} ${x::} ${x: } \"${x:(1):}\" ${x:1: }x ${x: : } ${x:  :} ${x:1?2:3:}y\na=(1 2 3); echo ${a[@]:1:} ${a[@]::} ${a[@]: }; set -- p q r; echo ${@:1:} ${@: :}\necho ${x:}; echo st=$?\necho b"},
	{"substring_empty_length_nounset", "set -u; echo ${y:1:}; echo b"},
	{"bad_substitution_word_text", "x=1; echo \"[${x!}]\"; echo st=$?\necho pre${x!}'q'\necho x\"a ${x!} b\"y\necho c"},
	{"indirect_special", "set -- p q; x=@; echo ${!x}; x=#; echo ${!x}\na=(1 2); x=a[1]; echo ${!x}; x=\"a[@]\"; echo ${!x}\ndeclare -A m=([k]=v); x=\"m[k]\"; echo ${!x}\nx=\"a[1+]\"; echo ${!x}; echo st=$?\necho b"},
	{"indirect_quoted_lists", "a=(1 \"2 3\"); x=\"a[@]\"; printf \"<%s>\" \"${!x}\"; echo; x=\"a[*]\"; printf \"<%s>\" \"${!x}\" \"${!x#1}\"; echo\nset -- \"p q\" r; x=@; printf \"<%s>\" \"${!x}\"; echo; x=*; printf \"<%s>\" \"${!x}\"; echo"},
	{"indirect_operators", "a=(1 2); x=a[1]; echo ${!x:-d} ${!x#2} ${#x} ${!x:0:1}; y=abc; x=y; echo ${!x:1} ${!x/b/B} ${!x^^}; x=zz; echo ${!x:-def} ${!x-d2}"},
	{"indirect_nounset", "set -u; x=zz; echo ${!x:-d}; y=1; x=y; echo ${!x}; x=zz; echo ${!x}; echo b"},
	// ${x@op} with an unknown op: nothing when x is unset, else a bad
	// substitution that ends the shell (bash -c: status 127).
	{"transform_unknown_unset", "echo ${x@Z}x; echo st=$?\na=(); echo \"[${a[@]@Z}]\" \"[${@@Z}]\" \"[${a[3]@Z}]\"\nx=y; echo \"[${!x@Z}]\"\necho b"},
	{"transform_unknown", "x=a; echo a; echo ${x@Z}; echo st=$?\necho b"},
	{"transform_unknown_empty", "x=; trap 'echo trap' EXIT; echo \"[${x@}]\"; echo b"},
	{"transform_unknown_array", "a=(1 2); echo ${a[@]@ZZ}\necho b"},
	{"transform_unknown_in_subshell", "x=1; ( echo \"a ${x@Z}\"; echo in ); echo st=$?\ny=$(echo ${x@Z}; echo in); echo \"st=$? $y\"\nf(){ echo ${x@Q} ${x@Z}; echo in; }; f; echo b"},
	{"transform_unknown_heredoc", "x=1; cat <<EOF\na \"${x@Z}\" b $x\nEOF\necho b\ncat <<EOF\na ${x!} b\nEOF\ncat <<EOF\n${y@Z}\nEOF\necho c"},
	{"transform_unknown_test_clause", "x=1; [[ ${x!} ]]; echo st=$?\necho b\n[[ ${x@Z} ]]; echo st=$?\necho c"},
	{"nounset_test_clause", "set -u; [[ $zz ]]; echo st=$?\necho b"},
	{"transform_unknown_quoted_array", "x=(); echo \"${x[@]@Z}\" b\nx=(a b); echo \"${x[@]@Z}\"; echo c"},
	{"transform_unknown_declare", "x=1; declare y+=a${x!}; echo b\nf() { local y=${x@Z}; echo in; }; f; echo c"},
	{"transform_unknown_nounset", "set -u; echo ${x@Z}; echo b"},

	// ${#a[sub]} with a subscript before the start (or of a scalar) fails the
	// command with the subscript text; under set -u an unset or scalar name
	// fails it too, without ending the shell
	{"length_subscript_negative", `a=(1 2)
echo "${#a[-5]}"; echo st=$? b
echo ${#a[-2]} ${#a[-1]} ${#a[5]} ${#a[-3]}x
echo in $LINENO
x=abc; echo ${#x[-1]} ${#x[0]}; echo ${#x[-2]}
f(){ echo ${#a[-9]}; echo in; }; f; echo st=$?
( echo ${#a[-9]}; echo in ); echo st=$?
y=$(echo ${#a[-9]}; echo in); echo "st=$? $y"
echo ${#u[-1]}; echo st=$?
declare -A m=([k]=v); echo ${#m[-1]} ${#m[k]}
echo $(( ${#a[-7]} + 1 )); echo st=$?
set -u; echo ${#a[-9]}; echo st=$?
echo end`},
	{"length_subscript_nounset", `set -u
x=abc; echo ${#x[0]}; echo st=$? a
echo ${#u[0]}; echo st=$? b
echo ${#u[@]}; echo st=$? c
echo end`},
	{"length_subscript_text", `a=(1 2); i=-5
echo ${#a[i]}; echo st=$?
echo ${#a[ -5 ]}; echo st=$?
echo ${#a[$i]}; echo st=$?
echo ${#a[-5+1]}; echo st=$?
declare -A m; echo ${#m[]}; echo st=$?
echo ${#a[]}; echo st=$?
echo end`},
	{"scalar_negative_subscript", `x=abc; echo "[${x[-1]}]" st=$?; echo "[${x[1]}]"
echo ${x[-1]:-d}`},

	// $((...) ...) whose command does not parse is a command substitution that
	// fails when it runs: the commands before the error run, bash words the
	// error as "command substitution: line N" and the substitution gives 2
	{"dparen_cmdsubst_syntax_error", `echo $((1) + (2))
echo b`},
	{"dparen_cmdsubst_syntax_forms", `echo a

echo $((1) + (2)) c
x=$((1) + (2)); echo st=$? "[$x]"
echo "$((1) fi)"
echo $((1)
+ (2)) d
f(){ echo $((1) + (2)); echo in; }; f
echo $((1) (2)); echo st=$?
echo $((echo a) (2)); echo st=$?
echo e`},
	{"dparen_cmdsubst_syntax_contexts", `eval 'echo $((1) + (2)) e'; echo st=$?
printf 'echo s\necho $((1) + (2)) t\necho u\n' > sf; . ./sf; echo st=$?
cat <<E
h $((1) + (2)) i
E
echo "$(echo $((1) + (2)) n)"
f() {
  echo $((1) + (2)) f
}
echo x
f
x=$((echo a; echo b) | tr a-z A-Z); echo "$x"
echo $((1) + (2) &) z
echo end`},

	// a backslash-newline in arithmetic is gone from its text (bash removes it
	// before reading the expression); a syntax error token after newlines is
	// the token itself, while division by 0 keeps the newlines
	{"arith_line_continuation", `echo $((1 \
/0))
echo $((1\
/0))
echo $(( 1 + \
  2 / 0 ))
x=$((5 \
% 0)); echo st=$?
(( 1 \
/ 0 ))
echo $[1 \
/0]
let "1 \
/0"
echo "$((1 \
/0))"
echo $((1 +\
))
echo end $LINENO`},
	{"arith_line_continuation_contexts", `for ((i=0; i<1\
/0; i++)); do :; done
x=abc; echo ${x:1\
/0}
a=(1 2); echo ${a[1\
/0]}
a[1\
/0]=2
echo $(( $((1 \
/0)) ))
echo $((x=\
1/0))
echo $((1 + \
  2 \
 / 0))
echo $(( 2 \
 +
 / 0))
echo end`},
	{"arith_error_token_after_newline", `echo $(( 2 +
 / 0))
echo $(( 2 +

/ 0))
echo $((2+
))
echo $((2+
  ))
echo $((1 2
3))`},
	{"arith_error_token_newline_kinds", `echo $((
1/0))
echo $((1
/0))
x=5; echo $(( x %
  0 ))
((
1/0))
echo $[1
/0]
let "1/
0"; let "1/ 
 0"
echo $((1 +
2 3))
echo $((1 /
0))
echo $((1 / 
 0))
echo $((1 
 2))
echo c`},
	{"arith_error_token_newline_forms", `echo $(( 1 ? 2 
 3 ))
echo $(( 1 ? 2 
 ))
echo $(( 1 ? 
 ))
echo $(( 1 
 @ ))
echo $(( 2 ** 
 -1 ))
echo $(( 1 + 
 ( 2 
 3 ) ))
echo c`},

	// ${name@op} transformations as bash: @Q always quotes (single quotes, $'...' for
	// what does not print), each element of an array or list; @A, @K, @k and @a
	// give declare's forms and attributes; declare -n names its target
	{"transform_quote", `x=z; echo ${x@Q}; x='a b'; echo ${x@Q}; x="it's"; echo ${x@Q}; x=$'a\nb'; echo ${x@Q}; x=; echo "[${x@Q}]"; unset x; echo "[${x@Q}]"
a=(1 'b c' "d'e"); echo ${a[@]@Q}; echo "${a[*]@Q}"; echo ${a[1]@Q}
x=y; y=1; echo ${!x@Q}; x='a b'; echo ${x@A}; declare -i n=3; echo ${n@A}; echo ${a[@]@A}
set -- p 'q r'; echo ${@@Q} ${1@Q}
x=$'\t\e'; echo ${x@Q}
x='$HOME'; echo ${x@Q} ${x@E}; x='a\tb'; echo "${x@E}"
declare -A m=([k]=v [j]='x y'); echo ${m[@]@Q} ${m[@]@K} "${m[@]@k}"`},
	{"transform_declare_forms", `a=(1 'b c' "d'e" 'f"g$h\i'); declare -A m=([k]=v [j]='x y')
echo ${a[@]@K}; echo "${a[@]@K}"; printf '<%s>' "${a[@]@k}"; echo; printf '<%s>' "${m[@]@k}"; echo
echo ${a[@]@A}; echo ${m[@]@A}; echo ${a@A} ${a[1]@A} ${m[k]@A}
x='q r'; echo ${x@K} ${x@k}; printf '<%s>' "${x@k}"; echo
declare -rx r=1; echo ${r@A} ${r@a}
declare -ai ia=(1 2); echo ${ia[@]@A}; echo ${ia@a} ${ia[@]@a}
unset u; echo "[${u@A}]" "[${u@K}]" "[${u@a}]"
declare -a e=(); echo "[${e[@]@A}]" "[${e[@]@Q}]" "[${e[@]@K}]"
set -- p 'q r'; echo ${@@A}; echo ${*@Q}; printf '<%s>' "${@@Q}"; echo
y=$'\x01z'; echo ${y@Q}; y=$'\xff'; echo ${y@Q}`},
	{"transform_key_forms", `a=(1 'b c'); declare -A m=([k]=v ['j k']='x y')
printf '<%s>' "${a[@]@K}"; echo; printf '<%s>' "${m[@]@K}"; echo; printf '<%s>' ${m[@]@K}; echo
printf '<%s>' "${a[*]@K}"; echo; printf '<%s>' "${a[@]@A}"; echo; printf '<%s>' "${a[*]@Q}"; echo
printf '<%s>' "${a[@]@a}"; echo; printf '<%s>' "${a[*]@k}"; echo
x=$'a\tb'; echo ${x@A}; declare -A m2=(['a"b']=1); echo ${m2[@]@A}; echo ${m2[@]@K}`},
	{"transform_indirect_and_attributes", `x=y; y=1; echo ${!x@Q} "${!x@Q}"; y='a b'; echo ${!x@Q}; unset y; echo "[${!x@Q}]"
a=(1 2); x='a[1]'; echo ${!x@Q}; x='a[@]'; echo ${!x@Q}
declare -n r=y; y=2; echo ${r@Q} ${r@a} ${r@A}
declare -l lo=ABC; echo ${lo@a} ${lo@A}
f() { local -i k=4; echo ${k@A}; echo "${@@Q}"; }; f 'a b' c
echo "${a[@]@U}" "${a@Q}" ${#a[@]}
set -u; echo "${u[@]@Q}" x; echo ${v@Q}; echo end`},
	{"transform_indirect_quote", `x=y; y=1; echo ${!x@Q}
z="a b"; x=z; echo ${!x@Q} ${x@Q}`},

	// set -u names what is unbound as bash: a[sub] with its text, $1 for a short
	// positional; "${a[@]}" of an empty array is no field; a readonly variable
	// refuses export, readonly and a local shadowing it
	{"nounset_elements_and_positionals", `set -u
a=(1); i=3; echo ${a[3]:-d} ${a[3]-e} ok ${#a[3]}
( echo ${a[i]} ); echo st=$?
( echo ${a[ 2 ]} ); echo st=$?
declare -A m; k=x; ( echo ${m[$k]} ); echo st=$?
( echo ${u[0]} ); echo st=$?
( echo "${a[3]}" ); echo st=$?
( set -- a; echo ${2} ); echo st=$?
( echo ${10} ); echo st=$?
( echo $3 ); echo st=$?
( echo "${!zz}" ); echo st=$?
echo ${a[3]@Q}; echo b`},
	{"nounset_empty_lists", `set -u
echo "$@" x
a=(); printf '<%s>' "${a[@]}" y; echo
f(){ echo ${2:-d} $1; echo in; }; f
echo b`},
	{"readonly_declaration_builtins", `readonly r=1
export r=2; echo st=$?
readonly r=3; echo st=$?
declare r=4; echo st=$?
typeset r=4; echo st=$?
f(){ local r=2; echo in $r st=$?; local r; echo in2 $r; declare r=3; echo in3 $r; }; f; echo st=$?
export r; echo st=$?
declare -x r; echo st=$?
echo end $r`},

	// unset of an element before an array's start, of a scalar's element, of a
	// readonly array; declare converting between indexed and associative;
	// readonly functions: bash's words and statuses
	{"unset_element_errors", `a=(1 2); unset 'a[5]'; echo st=$?; unset 'a[-9]'; echo st=$?; unset 'a[-1]'; echo ${a[@]} st=$?
x=5; unset 'x[-1]'; echo st=$? $x
unset 'u[-1]'; echo st=$?
declare -A m=([k]=1); unset 'm[-1]'; echo st=$?
echo b`},
	{"unset_element_forms", `x=5; unset "x[0]"; echo st=$? "[${x-unset}]"
x=5; unset "x[1]"; echo st=$? "[${x-unset}]"
a=(1); unset "a[ -3 ]"; echo st=$?
a=(1); unset "a[1/0]"; echo st=$?
echo next
readonly -a ra=(1 2); unset "ra[0]"; echo st=$? ${ra[@]}`},
	{"declare_array_conversion", `x=5; x[1]=2; declare -A x; echo st=$? ${x[@]}
declare -A m=([k]=v); declare -a m; echo st=$? ${m[@]}
declare -a m2=(1); declare -A m2=([a]=b); echo st=$? ${m2[@]}
f(){ local -A x; echo in st=$?; }; f
echo b`},
	{"readonly_functions", `f(){ echo f1; }; readonly -f f; f(){ echo x; }; echo st=$?; f
unset -f f; echo st=$?; f
( f(){ :; }; echo sub st=$? )
g(){ :; }; declare -rf g; g(){ :; }; echo st=$?
readonly -f nosuch; echo st=$?
echo b`},

	// a fatal expansion error in a simple command of a pipeline or in the
	// background exits as the shell itself (bash -c: 127), in ( ), { } or $( )
	// with 1; under set -e bash -c exits 1; a[@] in arithmetic warns and reads
	// 0; shift counts are taken modulo 64
	{"fatal_in_pipeline_stages", `echo ${u:?} | cat; echo ${PIPESTATUS[*]}
( echo ${u:?} ); echo $?
{ echo ${u:?}; } | cat; echo ${PIPESTATUS[*]}
( echo ${u:?} ) | cat; echo ${PIPESTATUS[*]}
x=$(echo ${u:?}); echo $?
echo ${u:?} & wait $!; echo $?
declare y=${u:?} | cat; echo ${PIPESTATUS[*]}
[[ ${u:?} ]] | cat; echo ${PIPESTATUS[*]}
f(){ :; } ; echo ${u:?} | f; echo ${PIPESTATUS[*]}
( echo ${u:?} | cat; echo ${PIPESTATUS[*]} )
set -u; echo $u | cat; echo ${PIPESTATUS[*]}`},
	{"fatal_errexit_qmark", `set -e; echo ${x:?}`},
	{"fatal_errexit_nounset", `set -e; set -u; f(){ echo $x; }; f`},
	{"fatal_errexit_transform", `set -e; x=1; echo ${x@Z}
echo b`},
	{"arith_whole_array", `a=(1 2); echo $(( a[@] )); echo st=$? b
echo $(( a[*] + 1 )); (( a[@] )); echo st=$?
let x=a[@]; echo $x`},
	{"arith_shift_modulo", `echo $((1<<64)) $((1<<65)) $((1<<-1)) $((-8>>65)) $((8>>-62))
x=1; ((x<<=66)); echo $x; y=256; ((y>>=-60)); echo $y
z=1; echo $(( z << 64 )) $(( $z << 65 ))`},

	// in a subshell an error abandoning the line ends the subshell even in eval,
	// source or a trap; trap handlers defer their arithmetic and ${...} errors;
	// a list slice's arithmetic error names it name[@]; the ERR trap runs in
	// functions and subshells only under set -E; $- lists the flags as bash
	{"discard_in_subshell_eval_source", `x=$(eval "echo \$((1/0))"; echo after); echo "[$x] $?"
( eval "echo \$((1/0))"; echo after ); echo $?
eval "echo \$((1/0))" | cat; echo after ${PIPESTATUS[*]}
{ eval "echo \$((1/0))"; echo in; } | cat; echo ${PIPESTATUS[*]}
f(){ eval "echo \$((1/0))"; echo inf; }; (f; echo sub); echo $?
(trap "echo \$((1/0)); echo t2" EXIT; echo a); echo $?
printf "echo \$((1/0))\necho in\n" > s1; ( . ./s1; echo sub ); echo st=$?
echo end`},
	{"trap_handler_deferred_errors", `trap "echo t \${x!}; echo t2" EXIT
trap 'echo u $((1 +)); echo u2' USR1
kill -USR1 $$; echo st=$?
echo a`},
	{"list_slice_arith_errors", `x=(1 2); echo ${x[@]:1/0}; echo b
set -- a b; echo ${@:1/0}; echo b
echo "${x[*]:1:1/0}" c; echo d
y=${x[@]:2/0}; echo st=$? f
echo ${x[@]:1:1} ${@:2} "${x[@]: -1}"
echo end`},
	{"err_trap_errtrace", `trap 'echo err $LINENO' ERR
echo a
false
f(){
  false
  echo in f
}
f
( false; echo sub )
x=$(false; echo cs)
set -E
f
( false; echo sub2 )
echo $- | tr -d hB
set +E
f`},
	{"dollar_dash_flags", `set -eEuxaC; echo $-
set +xeuaC
echo $-`},

	// builtin errors as bash: exit with too many arguments still exits (1);
	// break/continue 0 leave every loop, a non-numeric count exits 128;
	// invalid identifiers for printf -v and read; usage lines have no prefix
	{"loop_count_errors", `for i in 1 2; do for j in 1 2; do break 0; echo in; done; echo out; done; echo st=$?
for i in 1 2; do continue 0; echo in; done; echo st=$?
for i in 1; do break -1; echo in; done; echo st=$?
while :; do until false; do break 0; done; echo no; done; echo st=$?
f(){ exit 3 4; echo in; }; (f; echo no); echo st=$?
(exit 5 6; echo in); echo st=$?
for i in 1; do break a; echo in; done; echo st=$?`},
	{"exit_too_many_arguments", `exit 1 2; echo st=$?`},
	{"builtin_identifier_and_usage_errors", `printf -v 1x hi; echo st=$?; printf -v 'a[1]' hi; echo st=$? ${a[1]}
read -a 1x <<< hi; echo st=$?; read 2y z <<< hi; echo st=$?
printf; echo st=$?
getopts; echo st=$?
echo b`},

	// shift, pushd and unset errors in bash's words
	{"shift_pushd_unset_errors", `shift -1; echo st=$?; shift a; echo st=$?
pushd /nonexist; echo st=$?; popd; echo st=$?
unset -f; echo st=$?; unset -x a; echo st=$?; unset -vq a; echo st=$?
echo b`},

	// the call stack: FUNCNAME, BASH_SOURCE and BASH_LINENO through functions,
	// sourced files, eval, subshells and substitutions, in every mode
	{"call_stack_variables", `cat > lib <<'EOF'
echo "S[${BASH_SOURCE[*]}] F[${FUNCNAME[*]}] L[${BASH_LINENO[*]}]"
h(){ echo "hS[${BASH_SOURCE[*]}] F[${FUNCNAME[*]}] L[${BASH_LINENO[*]}]"; }
h
EOF
echo "S[${BASH_SOURCE[*]}] F[${FUNCNAME[*]}] L[${BASH_LINENO[*]}]"
. ./lib
f(){
 . ./lib
 h
}
f
eval "h"
( h )
echo "$(h)"`},
	{"call_stack_functions", `echo "[${BASH_SOURCE[@]}] [${FUNCNAME[@]}]"
f(){ echo "[${BASH_SOURCE[@]}] [${FUNCNAME[@]}] [${BASH_LINENO[@]}]"; }
f
printf "g(){ echo \"[\${BASH_SOURCE[@]}] [\${FUNCNAME[@]}]\"; }\necho \"s[\${BASH_SOURCE[@]}]\"\n" > lib
. ./lib
g`},
	{"call_stack_nounset", `set -u; echo ${BASH_ARGV[0]-none} $BASH_SOURCE; echo b
f(){ echo ${FUNCNAME[0]} ${BASH_SOURCE[0]} ${BASH_LINENO[0]}; }; f`},

	// an arithmetic error in declare -i x=... names the builtin
	{"declare_integer_arith_error", `declare -i i=1/0; echo st=$? i=$i; echo b
f(){ local -i j=2/0; echo in; }; f; echo st=$?
typeset -i k=1+; echo st=$?
declare -i n; n=1/0; echo st=$?
echo end`},

	// $(...) does not inherit set -e unless shopt -s inherit_errexit
	{"errexit_in_cmdsubst", `set -e; x=$(false; echo in); echo "b $x"`},
	{"inherit_errexit", `shopt inherit_errexit
set -e
x=$(false; echo in); echo "a $x"
shopt -s inherit_errexit
y=$(false; echo in2); echo "b $y"`},

	// a redirection target that splits or globs to other than one word is an
	// ambiguous redirect; set -u in a here-document fails only the command;
	// associative arrays slice (from 1) and report slice arithmetic errors
	{"redirect_ambiguous_hdoc_nounset_assoc_slice", `declare -A m; m[a]=1; echo ${m[@]:0:1/0}; echo b
declare -A n=([a]=1 [b]=2 [c]=3); echo ${n[@]:1} "${n[@]:0:2}" ${#n[@]}; x=${n[*]:1:1}; echo "$x"; echo ${n[@]:2} ${n[@]:2:1}
x="a b"; echo hi > $x; echo st=$?; y=; echo hi > $y; echo st=$?
echo hi > f*; echo st=$?; touch f1 f2; echo hi > f*; echo st=$?; rm f1 f2
touch g1; echo hi > g*; cat g1
set -u; cat <<EOF
$zz
EOF
echo st=$? b`},

	// shift and return with too many arguments abandon the line (bash -c ends, 1)
	{"shift_return_too_many", `shift 1 2; echo st=$?
f(){ return 1 2; echo in; }; f; echo st=$?
echo b`},
	{"return_too_many_forms", `f(){ return 1 2; echo in; }; f; echo st=$?
echo b
f(){ return x 2; echo in; }; f; echo st=$?
f(){ return 2 x; echo in; }; f; echo st=$?`},
	{"shift_too_many_forms", `set -- a b c
shift x 2; echo st=$?
shift 2 x; echo st=$?
echo $#
shift 5 5; echo st=$?`},

	// shopt lists every option bash has, in its order and with its defaults
	{"shopt_listings", `shopt -p
shopt | head -5
shopt -s | wc -l
shopt -pu | tail -3
shopt -o | head -3
shopt -po errexit nounset`},
	{"shopt_set_and_query", `shopt -q; echo $?; shopt -s -u x; echo $?; shopt -s nosuch extglob; echo $?; shopt -p extglob; shopt extglob nosuch; echo $?
shopt -o nosuch; echo $?; shopt -qo errexit; echo $?; shopt -so errexit; echo $-; shopt -uo errexit
shopt -pq extglob; echo $?; shopt -q nosuch; echo $?; shopt -- extglob; shopt -ps x; echo $?
shopt -x; echo $?
shopt -s lastpipe xpg_echo; shopt -p lastpipe xpg_echo checkwinsize; shopt -u checkwinsize; shopt checkwinsize; echo $?
shopt -s login_shell; shopt -p login_shell`},
	// a non-interactive bash expands aliases only under expand_aliases
	{"shopt_aliases_and_shift_verbose", `alias ll='echo hi'
ll; echo st=$?
shopt -s expand_aliases
alias ll='echo hi'
ll
set -- a; shift 3; echo $?; shopt -s shift_verbose; shift 3; echo $?`},

	// ${x@Q}, declare -p and printf %q quote what does not print in the
	// locale: every non-ASCII byte in C, invalid sequences in UTF-8
	{"quote_locales", `LC_ALL=C
y=$'\xc3\xa9'; x=$'a\nb'; declare -A m=([$y]=$x [k]=$y); a=($y "$x")
echo ${y@Q} ${a[@]@Q}; declare -p y x m a; printf '%q %q %q\n' "$y" "$x" 'a b'; echo ${a[@]@K} ${m[@]@A}
LC_ALL=C.UTF-8
echo ${y@Q} ${a[@]@Q}; declare -p y x m a; printf '%q %q %q\n' "$y" "$x" 'a b'; echo ${a[@]@K}
z=$'\xff\xe2\x82'; echo ${z@Q}; printf '%q\n' "$z"; declare -p z
LC_ALL=POSIX; echo ${y@Q}
unset LC_ALL; LANG=C; echo ${y@Q}`},

	// RETURN traps: run as a function or sourced file ends; functions (and
	// subshells) inherit them only under set -T or declare -ft
	{"return_trap_functions", `trap 'echo top-ret st=$? fn=${FUNCNAME[0]} line=$LINENO' RETURN
f(){ echo in f; return 3; }
f; echo after f st=$?
echo 'echo in src; return 4' > src.sh
. ./src.sh; echo after src st=$?
echo 'echo in src2' > src2.sh
. ./src2.sh; echo after src2 st=$?
set -T
f; echo after f2 st=$? $-
set +T
g(){ trap 'echo g-ret $?' RETURN; echo in g; false; }
g; echo after g st=$?
f; echo after f3
h(){ g; echo in h; }
h
declare -ft f
f
trap - RETURN
f; echo end`},
	{"return_trap_source_and_subshells", `echo "trap 'echo s-ret \$? \${FUNCNAME[*]} \$LINENO' RETURN; echo in s; false" > rs.sh
. ./rs.sh; echo after st=$?
trap - RETURN
f(){ . ./rs.sh; echo in f st=$?; }
f; echo after f
trap -p RETURN
trap - RETURN
g(){ trap 'echo g-ret $?' RETURN; x=$(echo sub); echo "$x"; (echo subsh); }
g
trap - RETURN
set -T
g2(){ echo in g2; }
trap 'echo t-ret ${FUNCNAME[0]}' RETURN
x=$(g2); echo "[$x]"
( g2 )
g2
set +T
m(){ trap 'echo m-ret; trap - RETURN' RETURN; echo m; }; m; m; echo end2
r(){ trap 'echo r-ret $?' RETURN; return 5; }; r; echo r st=$?
trap 'echo x' RETURN EXIT ERR USR1; trap -p`},

	// declare 1x=2 and the like: bash's declare reports the invalid name (the
	// whole word, expanded) when it runs, status 1; 1x=(...) is a syntax error
	{"decl_invalid_names", `echo a; declare 1x=2; echo st=$?; echo b
export 1x=2 ok=1; echo st=$? $ok; readonly 2y=3; echo st=$?
declare a-b=$HOME; declare 2x+=3; y=1; declare 3z="a b$y"; export 1e=1 ok=2; echo $ok; declare a-b; readonly 1x=2
f(){ local 1x=2 k=3; echo st=$? $k; typeset 9=1; echo st=$?; }; f
declare -- 1x=$y; echo st=$?; declare "1x=2"; echo st=$?; typeset '+=2'; echo st=$?`},
	{"decl_invalid_array", `echo a
declare 1x=(1 2); echo st=$?
echo b`},
	{"decl_options_usage", `f(){ declare -q x; echo st=$?; local -q x; echo st=$?; export -q; readonly -q; typeset +q; }; f`},
	// let alone and an arithmetic syntax error in ${x:off:len} fail when they run
	{"bare_let", `echo a; let; echo st=$?; echo b
let ; echo st=$?
f(){ let; echo in $?; }; f`},
	{"slice_syntax_error", `x=abc; echo a; echo ${x:1 +}; echo st=$?; echo b
echo c
echo ${x:1:2 *}; echo d
echo "${x: 1 + }" e
a=(1 2 3); echo ${a[@]:1 +}
echo ${x:1} ${x:(-2):1} ${x:1?1:0} ${x:-def}
echo end`},
	// ${x:=word} of a readonly x abandons the line; bash's reader loop and a
	// subshell keep status 2, while bash -c, eval, source and $(...) give 1
	{"assign_default_readonly", `readonly zz; echo a; echo ${zz:=5}; echo st=$?
echo b
readonly yy=; echo ${yy:=6} c; echo st=$?
f(){ : ${zz:=1}; echo in; }; f; echo st=$?
( : ${zz=1}; echo in ); echo st=$?
x=$(: ${zz:=1}; echo in); echo "st=$? $x"
echo end`},
	{"assign_default_readonly_status", `readonly zz; : ${zz:=1}
echo st=$?
f(){ : ${zz:=1}; }; f
echo st=$?
( : ${zz:=1} ); echo st=$?
x=$(: ${zz:=1}); echo st=$?
x=$( ( : ${zz:=1} ); echo $?); echo st=$? $x
eval ': ${zz:=1}'; echo st=$?
echo ': ${zz:=1}' > rs2.sh; . ./rs2.sh; echo st=$?
{ : ${zz:=1}; } | cat; echo ${PIPESTATUS[*]}
readonly -a ra=(1); : ${ra[3]:=1}
echo st=$?
readonly r=1
echo $((r=2))
echo st=$?`},
	// $((, $[ and (( left open: bash reads to their closing bracket and
	// reports the line they begin on
	{"arith_unclosed_eof_nested", `echo a; echo $(( (1`},
	{"arith_unclosed_eof_nested_line", `x=1
echo $(( (1`},
	{"arith_unclosed_eof_multiline", `echo $((1
+2`},
	{"arith_unclosed_eof_paren_later", `echo $(( (1

(2`},
	{"arith_unclosed_bracket", `echo $[1`},
	{"arith_unclosed_cmd", `(( (1`},
	{"arith_unclosed_operand", `echo $(( 1 +`},
	{"arith_unclosed_param", `echo $(( ${x`},

	// set -x as bash: each evaluated [[ ]] term with its words expanded
	// (quoted pattern characters escaped), declarations with their values,
	// one line per assignment, ((...)), case, let and array assignments as
	// written, PS4's first character repeated in $(...) and <(...); [[ ]]
	// gives && precedence over || and ! to the next term only
	{"xtrace_tests", `s="a b"; x=1; set -x; [[ -n "$s" ]]; [[ $x == a* && ! -z $s || $x -eq 1 ]]; [[ ( $x > 0 ) ]]; [[ $s =~ ^a\ (b)$ ]]; [[ $x ]]; [[ "$s" == "a b" ]]
[[ ! -z $s ]]; [[ ! $s ]]; [[ ! ( $s == a* ) ]]; [[ $s != "x"* ]]; [[ -f /etc/passwd ]]; [[ a -nt b ]]; [[ $s == $s ]]; [[ x$s == "x$s" ]]; p="a*"; [[ $s == $p ]]; [[ $s == "$p" ]]`},
	{"xtrace_decls", `set -x
f(){ local y=2 z; local -i w=3; export E=1; readonly R=$y; declare q="x y"; local v=$(echo hi) n; local; }; f
declare -x G; typeset t=; export E2+=a
x=3 y=4; echo $x`},
	{"xtrace_compound", `set -x
x=$(echo a) y=$(echo b)
echo $(echo $(echo deep))
i=0; while (( i < 2 )); do (( i++ )); done
case $x in a) echo isa ;; esac
if [ "$x" = a ]; then echo yes; fi
let k=1+2
f(){ echo "$@"; }; f "a b" c
echo "it's" $'t\tab' ''
export Z=1; unset Z
: ${q:=def}
arr=(1 "2 3"); arr+=(4)
read -r line <<< "text"
printf -v pv '%s' x
echo "$(( 2 * 3 ))" >/dev/null`},
	{"test_precedence_negation", `[[ 1 == 2 && 1 == 1 || 1 == 1 ]]; echo $?
[[ 1 == 1 || 1 == 2 && 1 == 2 ]]; echo $?
[[ ! 1 == 2 && 1 == 2 ]]; echo $?
[[ ! 1 == 1 || 1 == 1 ]]; echo $?
[[ ! ! 1 == 1 && 1 == 1 ]]; echo $?
[[ 1 == 2 && ! 1 == 2 || 2 == 2 ]]; echo $?
[[ ! ( 1 == 1 || 1 == 2 ) ]]; echo $?
[[ ( 1 == 2 || 1 == 1 ) && ( 2 == 2 ) ]]; echo $?`},
	{"test_precedence", `[[ 1 == 2 && 1 == 1 || 1 == 1 ]]; echo $?
[[ 1 == 1 || 1 == 2 && 1 == 2 ]]; echo $?
[ 1 = 2 -a 1 = 1 -o 1 = 1 ]; echo $?`},

	// field splitting: a non-whitespace IFS character ends a field even when
	// it is empty (a,,b is three fields); BASH_VERSINFO is bash's
	{"ifs_split", `IFS=,; x="a,,b"; set -- $x; echo $#; x=",a,"; set -- $x; echo $# "[$1]"; IFS=" ,"; x=" a , b ,, c "; set -- $x; echo $#; printf "<%s>" "$@"; echo; IFS=:; x="a:b::c:"; set -- $x; echo $#; a=($x); echo ${#a[@]}; for w in $x; do printf "[%s]" "$w"; done; echo`},
	{"bash_versinfo", `echo ${BASH_VERSINFO[0]} ${BASH_VERSINFO[@]}; declare -p BASH_VERSINFO
BASH_VERSINFO[0]=6; echo st=$?
bash -c 'echo ${BASH_VERSINFO[1]}'
(( BASH_VERSINFO[0] >= 4 )) && echo modern
echo "${!BASH_V*}"`},

	// \u and \U give the character in a UTF-8 locale, else the escape again
	// (bash's upper-case digits); shopt xpg_echo makes echo expand escapes
	{"unicode_escapes_locale", `LC_ALL=C
printf '\u00e9 \U0001F600 \u41\n'; echo $'\u00e9'; printf '%b\n' '\u00e9'; echo -e '\U0001f600 \u0041'
LC_ALL=C.UTF-8
printf '\u00e9 \U0001F600 \u41\n'; echo $'\u00e9'; printf '%b\n' '\u00e9'; echo -e '\U0001f600 \u0041'`},
	{"xpg_echo", `echo 'x\ty'; shopt -s xpg_echo; echo 'x\ty' "a\nb"; echo -E 'p\tq'; shopt -u xpg_echo; echo 'x\ty'`},

	// the programs the simulation provides test as executables in the bin
	// directories, and the shells are found where PATH reaches them
	{"bin_files", `[ -e /bin/sh ] && echo e; [ -f /bin/sh ] && echo f; [ -x /bin/sh ] && echo x; [ -x /bin/ls ] && echo lsx; [ -x "$(command -v ls)" ] && echo cvx
command -v ls sh bash
type sh; type -P bash; hash; [ -d /usr/bin/ls ] || echo notdir; [ -x /usr/bin/nosuchprog ] || echo noprog; [ -f /usr/bin/[ ] && echo bracket`},

	// a ( ) subshell that signals itself ($BASHPID) runs its trap or dies of
	// the signal (bash reports Terminated), as a forked bash does
	{"subshell_self_signal", `( trap 'echo got USR1' USR1; kill -USR1 $BASHPID; echo after ); echo st=$?
( echo $BASHPID > p1; echo $$ > p2 ); [ "$(cat p1)" != "$(cat p2)" ] && echo differ
( trap 'echo got TERM; exit 3' TERM; kill -TERM $BASHPID; echo after2 ); echo st=$?
( kill -TERM $BASHPID; echo after3 ); echo st=$?
( kill -INT $BASHPID; echo x ); echo st=$?
x=$(kill $BASHPID; echo in); echo "st=$? [$x]"
( trap 'echo bye' EXIT; kill -TERM $BASHPID; echo no ); echo st=$?
( trap '' TERM; kill -TERM $BASHPID; echo ignored ); echo st=$?
( kill -CHLD $BASHPID; echo chld ); echo st=$?`},

	// unset of a local of the running function leaves it local and unset
	// (the outer value stays hidden); a caller's local is removed
	{"unset_local_scopes", `x=global
k() { local x; x=inner; unset x; echo "k: ${x-unset}"; x=again; echo "k2: $x"; }; k; echo "top: $x"
f() { local x=fl; g; echo "f after g: ${x-unset}"; }; g() { unset x; echo "g: ${x-unset}"; }; f; echo "top: $x"
h() { local -i n=5; unset n; n=1+1; echo "h: $n"; }; h
a() { local -a arr=(1 2); unset arr; echo "a: ${#arr[@]} ${arr-none}"; arr[3]=x; declare -p arr; }; a
u() { unset x; echo "u: ${x-unset}"; }; u; echo "top: ${x-unset}"`},
	{"scoping", `x=global
f() { local x=local; g; }
g() { echo "g sees $x"; x=changed; }
f; echo "after f: $x"
h() { unset x; echo "h: ${x-unset}"; }; x=g2; h; echo "after h: ${x-unset}"
k() { local x; x=inner; unset x; echo "k: ${x-unset}"; }; x=g3; k; echo "$x"
m() { declare -A mm=([a]=1); echo ${mm[a]}; }; m; echo "${mm[a]-none}"`},

	// caller reads the call stack as bash's does (FUNCNAME, BASH_SOURCE,
	// BASH_LINENO), NULL where the short form has no file
	{"caller_builtin", `caller; echo st=$?
f() { caller; caller 0; caller 1; echo st=$?; }
g() { f; }
g
echo 'h() { caller 0; }; h' > cs.sh; . ./cs.sh
f(){ caller x; echo $?; caller -1; echo $?; }; f`},

	// declare -f and type print a function as bash's own printer does
	{"declare_f_format", `f(){ for ((i = 0; i < 2; i++)); do echo $i; done; while :; do break; done; until false; do :; done; if a; then b; elif c; then d; else e; fi; x=1 y=2; echo a | grep b && echo c || echo d; { echo g; }; (echo s); f2 & [[ -n $x ]]; (( x++ )); echo >&2 hi; cat <<<"x"; case a in a|b) ;; *) echo z;; esac; }
declare -f f
g() {
  # comment
  local x=1
  if [ "$x" = 1 ]; then echo one; else echo other; fi
  for i in 1 2; do echo $i; done
  while read -r line; do
    case "$line" in
      a*) echo A ;;
      *) echo other;;
    esac
  done < /dev/null
  echo "$(date +%s)" | cat > /dev/null 2>&1
  [[ -n $x ]] && return 0 || return 1
}
type g
h() ( echo sub )
declare -f h
k() { echo "a b" 'c'; } > /dev/null
declare -f k`},

	// scripts run by their #! line name themselves in BASH_SOURCE as bash FILE
	{"script_invocation", `printf '#!/usr/bin/env bash\necho "0=$0 1=$1 #=$#"; echo "src=${BASH_SOURCE[0]}"; exit 4\n' > sc.sh; chmod +x sc.sh
./sc.sh a b; echo st=$?
bash sc.sh x; echo st=$?
bash ./sc.sh; echo st=$?
sh -c 'echo $0' arg0
printf 'echo sourced $1 $#\nreturn 3\necho no\n' > so.sh; . ./so.sh p q; echo st=$?
bash -c 'echo $0 $1' ; bash -s a b <<< 'echo "s: $0 $1 $2"'
echo 'echo piped $0' | bash
env -i bash -c 'echo "${PATH:-nopath}"' | head -c 0; echo ok
bash -n sc.sh; echo n=$?
bash -e -c 'false; echo no'; echo st=$?
bash -u -c 'echo $zz' 2>/dev/null; echo st=$?
bash -x -c 'echo traced' 2>&1`},
	{"wait_misc", `wait; echo st=$?
echo "${!:-none}"
wait 999999; echo st=$?
true & wait $!; echo st=$?
printf "#!/bin/bash\nf(){ echo \"\${FUNCNAME[*]} \${BASH_SOURCE[*]}\"; caller 0; }; f\n" > sc2.sh; chmod +x sc2.sh; ./sc2.sh`},

	// redirections and exec as bash; /dev/tty cannot open (no controlling
	// terminal); common error messages
	{"redirs_and_exec", `echo data > in.txt
echo "$(< in.txt)"
x=$(cat <<EOF2
multi
line $((1+1))
EOF2
); echo "$x"
{ echo out; echo err >&2; } 2>&1 | tr a-z A-Z
echo a &>> both.txt; echo b >> both.txt 2>&1; cat both.txt
set -C; echo x > in.txt; echo st=$?; echo y >| in.txt; cat in.txt; set +C
exec 4<> rw.txt; echo hi >&4; exec 4>&-; cat rw.txt
exec 5< in.txt; read -u 5 l; echo "u5=$l"; exec 5<&-
exec > out.txt; echo hidden; exec >/dev/tty 2>/dev/null || exec >&2; cat out.txt >&2`},
	{"case_fallthrough", `for v in a b c; do
case $v in
  a) echo A ;&
  b) echo AB ;;&
  [ab]) echo ab2 ;;
  *) echo other ;;
esac
done
i=0; while read -r l; do ((i++)); [[ $l == 2 ]] && continue; echo "l=$l"; done < <(seq 3); echo i=$i
for o in 1 2; do for p in 1 2; do [[ $p == 2 ]] && continue 2; echo $o$p; done; done
p='\u@\h $ '; echo "${p@P}" | wc -c | tr -d ' ' >/dev/null; echo pok
printf -v 'arr[2]' '%s' val; echo "${arr[2]}"
echo x > /dev/tty; echo st=$?; read l < /dev/tty; echo st=$?`},
	{"common_error_messages", `x="a b"; [ $x = a ]; echo st=$?
[ abc -gt 1 ]; echo st=$?
[[ abc -gt 1 ]]; echo st=$?
[ 1 -eq ]; echo st=$?
[ ( 1 ]; echo st=$?
test -q x; echo st=$?
f() { nosuch_cmd_in_f; }; f; echo st=$?
a=(1); echo ${a[x y]}; echo st=$?
cd; echo st=$?; cd - >/dev/null; echo st=$?
declare -A h; h=(1 2); echo st=$?
printf '%d\n' abc; echo st=$?
printf '%d\n' 12abc; echo st=$?
echo $(( 08 )); echo st=$?
let 'x = 1 +'; echo st=$?`},

	// mapfile -C/-c evaluates the callback with the index and quoted line
	{"mapfile_callback", `printf 'a\nb\nc\n' | { mapfile -C "echo cb" -c 1 x; declare -p x; }
printf 'a\nb\nc\nd\n' | { mapfile -t -C 'printf "<%s|%s>\n"' -c 2 -O 5 x; declare -p x; }
mapfile -C cb -c 0 x < /dev/null; echo $?
printf "it's\n" | { mapfile -t -C 'echo' -c 1 y; echo "${y[0]}"; }
mapfile -C 'echo cb' xs < /dev/null; echo "${#xs[@]}"`},

	// Genuine syntax errors: the lines before run, then the shell exits 2
	// with bash's wording.
	{"syntax_if_without_fi", "echo a\nif true; then echo b\n"},
	{"syntax_if_at_end", "echo a; if"},
	{"syntax_unclosed_double_quote", "echo a\necho \"b\necho c"},
	{"syntax_unclosed_single_quote", "echo a\necho 'b\n"},
	{"syntax_unclosed_backquote", "echo a; echo `echo b\n"},
	{"syntax_unclosed_cmdsubst", "echo a\necho $(echo b\n"},
	{"syntax_unclosed_arith", "echo a\necho $((1+2)"},
	{"syntax_unclosed_group", "echo a\n{ echo b\n"},
	{"syntax_unclosed_function", "echo a\nf() {\necho b"},
	{"syntax_unclosed_array", "echo a\nx=(1 2\n"},
	{"syntax_unexpected_fi", "echo a\necho b; fi\necho c"},
	{"syntax_unexpected_paren", "echo a\necho b )\necho c"},
	{"syntax_unexpected_then", "echo a\nif then fi\necho c"},
	{"syntax_empty_while", "echo a\nwhile; do :; done"},
	{"syntax_unexpected_done", "echo a\ndone"},
	{"syntax_dsemi", "echo a\necho b;;\necho c"},
	{"syntax_redirect_without_word", "echo a\necho >"},
	{"syntax_pipe_at_end", "echo a | "},
	{"syntax_inside_loop", "echo a\nwhile true; do\n  echo b; fi\ndone"},
	{"syntax_after_continuation", "echo a \\\n  b; fi"},
	{"syntax_after_exit", "x=1\nexit 3\nif"},
	{"syntax_in_eval", "eval \"echo a; if\"; echo st=$?\neval \"echo a\nif true\"; echo st=$?\neval \"echo \\\"a\"; echo st=$?\necho c"},
	{"syntax_in_eval_token", "eval \"fi\"; echo st=$?\nf(){ eval \"fi\"; }; f; echo st=$?"},
	{"syntax_in_eval_exit", "eval \"exit 4\nif\"; echo no"},
	{"syntax_in_source", "printf 'echo s\\nif true\\n' > t4; . ./t4; echo st=$?\necho c"},
}

// errorModes are the ways a script reaches bash; each is run the same way
// inside ShellSim (a nested bash) and on the host; stdout, stderr and the
// exit status must be identical.
var errorModes = []struct {
	name string
	cmd  string // run in a directory holding the script as s.sh
}{
	{"file", "bash s.sh"},
	{"stdin", "bash < s.sh"},
	{"dash_c", `bash -c "$(cat s.sh)"`},
}

func TestShellErrors(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is not installed on this host: the error cases compare against it")
	}
	for _, tc := range errorCases {
		for _, m := range errorModes {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) { compareWithBash(t, tc.src, m.cmd) })
		}
	}
}

// syntaxCheckCases are checked with bash -n: syntax errors are reported
// (in bash's words), arithmetic and substitution errors are not, since
// bash finds those only when the line runs.
var syntaxCheckCases = []struct{ name, src string }{
	{"if_without_fi", "echo a\nif true\n"},
	{"unclosed_quote", "echo \"a\n"},
	{"unexpected_fi", "fi\n"},
	{"deferred_arith", "echo $((1 +))\n((x = ))\nlet 1+\necho ${x!}\n"},
}

func TestShellSyntaxCheck(t *testing.T) {
	for _, tc := range syntaxCheckCases {
		for _, m := range []struct{ name, cmd string }{
			{"file", "bash -n s.sh"}, {"stdin", "bash -n < s.sh"}, {"dash_c", `bash -n -c "$(cat s.sh)"`},
		} {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) { compareWithBash(t, tc.src, m.cmd) })
		}
	}
}

// compareWithBash runs cmd in a directory holding src as s.sh, on the
// host and in ShellSim, and compares stdout, stderr (each given through
// normalize, if any) and the exit status.
func compareWithBash(t *testing.T, src, command string, normalize ...func(string) string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.sh"), []byte(src+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Signals ignored by whatever started the tests (nohup ignores
	// SIGHUP) stay ignored across exec, and bash lists them in trap -p;
	// ShellSim starts with none ignored, as bash does from a login.
	cmd := exec.CommandContext(ctx, "env", "--default-signal", "bash", "-c", command)
	cmd.Dir, cmd.Env = dir, hostEnv
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	status := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		status = ee.ExitCode()
	}

	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	setup := "cat > s.sh <<'__SCRIPT__'\n" + src + "\n__SCRIPT__\n"
	if r := env.Run(ctx, setup, nil); r.Outcome.ExitStatus != 0 {
		t.Fatalf("writing the script: %s", r.Stderr)
	}
	r := env.Run(ctx, command, nil)
	if got := string(r.Stdout); got != out.String() {
		t.Errorf("stdout:\nbash:     %q\nshellsim: %q", out.String(), got)
	}
	gotErr, wantErr := string(r.Stderr), errb.String()
	for _, f := range normalize {
		gotErr, wantErr = f(gotErr), f(wantErr)
	}
	if gotErr != wantErr {
		t.Errorf("stderr:\nbash:     %q\nshellsim: %q", wantErr, gotErr)
	}
	if r.Outcome.ExitStatus != status {
		t.Errorf("exit status: bash %d, shellsim %d (stderr %q)", status, r.Outcome.ExitStatus, r.Stderr)
	}
}
