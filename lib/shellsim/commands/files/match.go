package files

import "unicode/utf8"

// fnmatch matches name against a shell wildcard pattern the way
// fnmatch(3) does without FNM_PATHNAME or FNM_PERIOD, as find -name and
// -path use it: '*' and '?' also match '/' and a leading '.'. Go's
// path.Match treats '/' specially and lacks [!...], hence this matcher.
func fnmatch(pattern, name string, fold bool) bool {
	if fold {
		pattern, name = lowerASCII(pattern), lowerASCII(name)
	}
	px, nx := 0, 0
	starP, starN := -1, -1
	for nx < len(name) || px < len(pattern) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				starP, starN = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					_, w := utf8.DecodeRuneInString(name[nx:])
					px++
					nx += w
					continue
				}
			case '[':
				if nx < len(name) {
					r, w := utf8.DecodeRuneInString(name[nx:])
					if ok, end, valid := matchClass(pattern, px, r); valid {
						if ok {
							px = end
							nx += w
							continue
						}
					} else if name[nx] == '[' {
						px++
						nx++
						continue
					}
				}
			case '\\':
				if px+1 < len(pattern) {
					if nx < len(name) && name[nx] == pattern[px+1] {
						px += 2
						nx++
						continue
					}
				} else if nx < len(name) && name[nx] == '\\' {
					px++
					nx++
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starP >= 0 && starN < len(name) {
			_, w := utf8.DecodeRuneInString(name[starN:])
			starN += w
			px, nx = starP+1, starN
			continue
		}
		return false
	}
	return true
}

// matchClass matches r against the bracket expression at pattern[i].
func matchClass(pattern string, i int, r rune) (ok bool, end int, valid bool) {
	j := i + 1
	negate := false
	if j < len(pattern) && (pattern[j] == '!' || pattern[j] == '^') {
		negate = true
		j++
	}
	first := true
	for j < len(pattern) {
		if pattern[j] == ']' && !first {
			return ok != negate, j + 1, true
		}
		first = false
		if pattern[j] == '[' && j+1 < len(pattern) && pattern[j+1] == ':' {
			k := j + 2
			for k+1 < len(pattern) && !(pattern[k] == ':' && pattern[k+1] == ']') {
				k++
			}
			if k+1 < len(pattern) {
				if classHas(pattern[j+2:k], r) {
					ok = true
				}
				j = k + 2
				continue
			}
		}
		lo, w := utf8.DecodeRuneInString(pattern[j:])
		if lo == '\\' && j+1 < len(pattern) {
			j++
			lo, w = utf8.DecodeRuneInString(pattern[j:])
		}
		j += w
		hi := lo
		if j+1 < len(pattern) && pattern[j] == '-' && pattern[j+1] != ']' {
			hi, w = utf8.DecodeRuneInString(pattern[j+1:])
			j += 1 + w
		}
		if lo <= r && r <= hi {
			ok = true
		}
	}
	return false, 0, false
}

func classHas(class string, r rune) bool {
	switch class {
	case "alpha":
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return classHas("alpha", r) || classHas("digit", r)
	case "upper":
		return r >= 'A' && r <= 'Z'
	case "lower":
		return r >= 'a' && r <= 'z'
	case "space":
		return r == ' ' || r >= '\t' && r <= '\r'
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r > ' ' && r < 127 && !classHas("alnum", r)
	case "xdigit":
		return classHas("digit", r) || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	}
	return false
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
