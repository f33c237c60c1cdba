package jq

import (
	"regexp"
	"strings"
)

// gojq words its runtime errors differently from jq; scripts and agents
// match on jq's texts ("Cannot index", "cannot be added"), so the common
// ones are rewritten. gojq does not keep the key of a failed index, so
// "Cannot index number with string" lacks jq's trailing `"key"`.
var jqRewrites = []struct {
	re   *regexp.Regexp
	repl func(m []string) string
}{
	{regexp.MustCompile(`^expected an object but got: (\w+) \(.*\)$`), func(m []string) string { return "Cannot index " + m[1] + " with string" }},
	{regexp.MustCompile(`^expected an object but got: null$`), func(m []string) string { return "Cannot index null with string" }},
	{regexp.MustCompile(`^expected an array but got: (\w+) \(.*\)$`), func(m []string) string { return "Cannot index " + m[1] + " with number" }},
	{regexp.MustCompile(`^cannot iterate over: (.*)$`), func(m []string) string { return "Cannot iterate over " + nullValue(m[1]) }},
	{regexp.MustCompile(`^cannot (add|subtract|multiply|divide): (.*) and (.*)$`), func(m []string) string {
		verb := map[string]string{"add": "added", "subtract": "subtracted", "multiply": "multiplied", "divide": "divided"}[m[1]]
		return nullValue(m[2]) + " and " + nullValue(m[3]) + " cannot be " + verb
	}},
	{regexp.MustCompile(`^cannot divide (.*) by: (.*)$`), func(m []string) string {
		return m[1] + " and " + m[2] + " cannot be divided because the divisor is zero"
	}},
	{regexp.MustCompile(`^cannot modulo (.*) by: (.*)$`), func(m []string) string {
		return m[1] + " and " + m[2] + " cannot be divided (remainder) because the divisor is zero"
	}},
	{regexp.MustCompile(`^keys cannot be applied to: (.*)$`), func(m []string) string { return nullValue(m[1]) + " has no keys" }},
	{regexp.MustCompile(`^length cannot be applied to: (.*)$`), func(m []string) string { return nullValue(m[1]) + " has no length" }},
	{regexp.MustCompile(`^has\((".*"|\d+)\) cannot be applied to: (\w+).*$`), func(m []string) string {
		kind := "number"
		if strings.HasPrefix(m[1], `"`) {
			kind = "string"
		}
		return "Cannot check whether " + m[2] + " has a " + kind + " key"
	}},
}

func nullValue(s string) string {
	if s == "null" {
		return "null (null)"
	}
	return s
}

// jqMessage rewrites a gojq error message into jq's words when it knows how.
func jqMessage(msg string) string {
	for _, r := range jqRewrites {
		if m := r.re.FindStringSubmatch(msg); m != nil {
			return r.repl(m)
		}
	}
	return msg
}
