package interp

import (
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// Unicode special casing (ß -> SS, ﬁ -> FI, İ -> i̇) as CPython applies it.
var (
	upperCaser = cases.Upper(language.Und)
	lowerCaser = cases.Lower(language.Und)
	foldCaser  = cases.Fold()
)

func pyUpper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	return upperCaser.String(s)
}

func pyLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return lowerCaser.String(s)
}

func pyCasefold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return foldCaser.String(s)
}
