package command

import "fmt"

// MaxSyntaxNest bounds the bracket nesting of the source given to a
// recursive-descent parser (the shell's, arithmetic, awk, jq...): each level
// takes host stack (about 5 KiB in the shell's arithmetic parser), and Go
// aborts the whole embedding process when a stack overflows.
const MaxSyntaxNest = 2000

// SyntaxNest is the deepest nesting of "(", "[" and "{" in src, counted
// without regard to quotes or escapes: an overestimate is safe, while any
// quote-aware count could be fooled by a quote the parser sees differently.
func SyntaxNest(src string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// CheckSyntaxNest refuses src nested deeper than MaxSyntaxNest.
func CheckSyntaxNest(src string) error {
	if SyntaxNest(src) > MaxSyntaxNest {
		return fmt.Errorf("nesting deeper than %d levels", MaxSyntaxNest)
	}
	return nil
}
