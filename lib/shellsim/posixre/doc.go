// Package posixre is ShellSim's one POSIX regular-expression engine, used
// by grep, sed, awk, expr, find, tac, nl and the shell's [[ =~ ]]: basic and
// extended regular expressions with each tool's GNU extensions (Flavor),
// POSIX leftmost-longest matching, and backreferences.
//
// A pattern is parsed once into RE2 syntax, keeping GNU's meaning where
// RE2 differs: context-dependent literals (a leading '*' in a BRE, a BRE
// '^' or '$' in the middle), GNU escapes (\+ \? \| \w \s \` \'), bracket
// expressions (where '\' is literal and ']' may come first), stacked
// repetitions (a**), intervals like {,n}, and glibc's error messages for
// malformed patterns. Patterns RE2 can run compile to Go's regexp in
// leftmost-longest mode, which runs in time linear in the text. What RE2
// cannot express (backreferences, \< and \> that are not plain \b, and
// word boundaries over Unicode letters) runs on a backtracking matcher
// whose work is charged to the caller's fuel and bounded per call, so a
// hostile pattern costs a bounded amount of CPU and stack.
package posixre
