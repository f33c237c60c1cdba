package awk

import (
	"math"
	"strconv"
	"strings"
)

type kind uint8

const (
	kUninit kind = iota
	kNum
	kStr
	kStrNum // input data that looks numeric: compares as a number
)

type value struct {
	k kind
	s string
	n float64
}

func num(n float64) value  { return value{k: kNum, n: n} }
func str(s string) value   { return value{k: kStr, s: s} }
func boolean(b bool) value { return num(b2f(b)) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// strnum makes a value from input data (fields, getline, ARGV, -v): it
// is a number for comparisons when the whole string looks numeric.
func strnum(s string) value {
	if n, ok := looksNumeric(s); ok {
		return value{k: kStrNum, s: s, n: n}
	}
	return value{k: kStr, s: s}
}

func (v value) isNumeric() bool { return v.k == kNum || v.k == kStrNum || v.k == kUninit }

func (v value) num() float64 {
	switch v.k {
	case kNum, kStrNum:
		return v.n
	case kStr:
		n, _ := strtod(v.s)
		return n
	}
	return 0
}

func (v value) bool() bool {
	switch v.k {
	case kNum, kStrNum:
		return v.n != 0
	case kStr:
		return v.s != ""
	}
	return false
}

// looksNumeric reports whether s is, apart from surrounding blanks, a
// decimal floating-point number.
func looksNumeric(s string) (float64, bool) {
	t := strings.Trim(s, " \t\n\r\f\v")
	if t == "" {
		return 0, false
	}
	n, used := strtod(t)
	if used != len(t) {
		return 0, false
	}
	return n, true
}

// strtod parses the longest numeric prefix of s after leading blanks, as
// C's strtod does for decimal input. It returns the value and the number
// of bytes used (0 when there is no number).
func strtod(s string) (float64, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v') {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	// inf and nan, as gawk accepts them with an explicit sign
	if i > start && i+3 <= len(s) {
		w := strings.ToLower(s[i : i+3])
		if w == "inf" || w == "nan" {
			end := i + 3
			if w == "inf" && i+8 <= len(s) && strings.ToLower(s[i:i+8]) == "infinity" {
				end = i + 8
			}
			v := math.Inf(1)
			if w == "nan" {
				v = math.NaN()
			}
			if s[start] == '-' {
				v = -v
			}
			return v, end
		}
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil {
		// out of range: ParseFloat returns ±Inf or 0 with the error
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, i
		}
		return 0, 0
	}
	return v, i
}

// numToStr converts a number the way awk does: integers print as
// integers, other values through the given format (CONVFMT or OFMT).
func numToStr(n float64, format string) string {
	if n == math.Trunc(n) && !math.IsInf(n, 0) {
		if n == 0 {
			return "0"
		}
		if math.Abs(n) < 1e18 {
			return strconv.FormatInt(int64(n), 10)
		}
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	if math.IsNaN(n) {
		// x86 libm produces negative NaNs; gawk prints them so.
		return "-nan"
	}
	if math.IsInf(n, 0) {
		if n < 0 {
			return "-inf"
		}
		return "+inf"
	}
	if format == "%.6g" {
		return formatG(n, 6, false, false)
	}
	return sprintf(format, []value{num(n)}, nil)
}
