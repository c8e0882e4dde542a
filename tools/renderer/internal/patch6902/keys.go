package patch6902

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sortKeys sorts mapping keys in go-yaml v3's order, or reports false when
// that order is not certain: a sort by it can end in more than one order
// (keys with digits can form cycles), and go-yaml's then depends on Go's map
// iteration order.
func sortKeys(keys []string) bool {
	slices.SortFunc(keys, func(a, b string) int {
		if keyLess(a, b) {
			return -1
		}
		return 1
	})
	for i := 1; i < len(keys); i++ {
		if !keyLess(keys[i-1], keys[i]) || keyLess(keys[i], keys[i-1]) {
			return false
		}
	}
	digits := false
	for _, k := range keys {
		digits = digits || strings.ContainsFunc(k, unicode.IsDigit)
	}
	if !digits {
		return true // then the order is total: neighbours in order are enough
	}
	if len(keys) > 64 {
		return false
	}
	for i := range keys {
		for j := i + 2; j < len(keys); j++ {
			if !keyLess(keys[i], keys[j]) || keyLess(keys[j], keys[i]) {
				return false
			}
		}
	}
	return true
}

// keyLess is go-yaml v3's order of string keys. At the first character
// that differs: letters sort by code point, after anything else, except
// right after a digit, where a letter sorts first (so "a1b" before "a10");
// a digit starts a number, and numbers compare by value (where a zero
// follows a non-zero digit, counting from a leading 1 so the zero counts),
// then shorter runs first, then by the differing character. It reads the
// keys in place, without go-yaml's copies of them as runes.
func keyLess(a, b string) bool {
	i := 0
	var prev rune = -1
	nonZeroRun := false // the digits right before i include a non-zero one
	for i < len(a) && i < len(b) {
		x, w := utf8.DecodeRuneInString(a[i:])
		y, _ := utf8.DecodeRuneInString(b[i:])
		if x != y {
			return differ(a[i:], b[i:], x, y, prev, nonZeroRun)
		}
		if unicode.IsDigit(x) {
			nonZeroRun = nonZeroRun || x != '0'
		} else {
			nonZeroRun = false
		}
		prev = x
		i += w
	}
	return len(a) < len(b)
}

// differ orders two keys at their first different characters x and y
// (starting a and b); prev is the character before, if any.
func differ(a, b string, x, y, prev rune, nonZeroRun bool) bool {
	xl, yl := unicode.IsLetter(x), unicode.IsLetter(y)
	switch {
	case xl && yl:
		return x < y
	case xl || yl:
		if prev >= 0 && unicode.IsDigit(prev) {
			return xl
		}
		return yl
	}
	var start int64
	if (x == '0' || y == '0') && nonZeroRun {
		start = 1
	}
	xn, xlen := number(a, start)
	yn, ylen := number(b, start)
	switch {
	case xn != yn:
		return xn < yn
	case xlen != ylen:
		return xlen < ylen
	}
	return x < y
}

// number reads the digits s starts with after n, and returns the number
// and how many digits there were.
func number(s string, n int64) (int64, int) {
	digits := 0
	for _, r := range s {
		if !unicode.IsDigit(r) {
			break
		}
		n = n*10 + int64(r-'0')
		digits++
	}
	return n, digits
}
