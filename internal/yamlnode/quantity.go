package yamlnode

import (
	"strconv"
	"strings"
)

// Quantities are read by the rules of resource.ParseQuantity (k8s.io/apimachinery), with
// which the API server decodes every Quantity field, ported rather than called: calling it
// would link apimachinery's CBOR serializer into the lean krm and add its initialisation to
// every start (a seventh more than krm's own), and it does not return on exponents near ±2^31
// ("1e-2147483648"). Here the work is linear in the length of the text. The tests hold the
// port to ParseQuantity's answers.

// IsQuantity reports whether resource.ParseQuantity accepts s: "1.5Gi", "500m", "1e3",
// also its degenerate zeros ("+", ".", "k"). The API server trims the space around a
// quantity before it parses it; IsQuantity does not.
func IsQuantity(s string) bool {
	_, ok := parseQuantity(s)
	return ok
}

// SameQuantity reports whether a and b are quantities the API server stores as the same
// value: 0.5 and 500m, 1Gi and 1024Mi, 0.0000000001 and 1n (values are rounded away from
// zero to the nano), 8Ei and 9Ei (values with a binary suffix are capped at 2^63-1).
func SameQuantity(a, b string) bool {
	x, ok := parseQuantity(a)
	if !ok {
		return false
	}
	y, ok := parseQuantity(b)
	if !ok {
		return false
	}
	return x.value() == y.value()
}

// CompareQuantity compares the quantities a and b as the API server's Quantity.Cmp does
// their stored values: -1, 0 or 1; ok false when either is not a quantity.
func CompareQuantity(a, b string) (c int, ok bool) {
	x, ok := parseQuantity(a)
	if !ok {
		return 0, false
	}
	y, ok := parseQuantity(b)
	if !ok {
		return 0, false
	}
	return x.value().cmp(y.value()), true
}

// quantity is a parsed quantity: ±digits × 10^exp × 2^binary.
type quantity struct {
	neg    bool
	digits string // the digits, the point left out ("" or zeros for zero)
	exp    int64  // the power of ten of the last digit
	binary uint   // the power of two of a binary suffix (10 for Ki), 0 for none
}

// parseQuantity is resource.ParseQuantity's parseQuantityString, suffix lookup and the
// one error of its arithmetic (no digit at all where it needs a decimal).
func parseQuantity(s string) (quantity, bool) {
	var q quantity
	if s == "" {
		return q, false
	}
	pos, end := 0, len(s)
	switch s[0] {
	case '-':
		q.neg = true
		pos++
	case '+':
		pos++
	}
	zeros := pos
	for pos < end && s[pos] == '0' {
		pos++
	}
	if pos == end {
		return q, true // a sign and zeros, or nothing after the sign
	}
	hasDigit := pos > zeros
	numStart := pos
	pos = digitsFrom(s, pos)
	num := s[numStart:pos]
	var denom string
	if pos < end && s[pos] == '.' {
		pos++
		denomStart := pos
		pos = digitsFrom(s, pos)
		denom = s[denomStart:pos]
	}
	hasDigit = hasDigit || num != "" || denom != ""
	suffix := s[pos:]
	// The suffix: letters of eEinumkKMGTP, then a sign, then digits, up to the end.
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos < end && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	if digitsFrom(s, pos) != end {
		return q, false
	}
	var exponent int32
	decimal := true
	switch suffix {
	case "":
	case "n":
		exponent = -9
	case "u":
		exponent = -6
	case "m":
		exponent = -3
	case "k":
		exponent = 3
	case "M":
		exponent = 6
	case "G":
		exponent = 9
	case "T":
		exponent = 12
	case "P":
		exponent = 15
	case "E":
		exponent = 18
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		decimal = false
		q.binary = 10 * uint(1+strings.IndexByte("KMGTPE", suffix[0]))
	default:
		if len(suffix) < 2 || suffix[0] != 'e' && suffix[0] != 'E' {
			return q, false
		}
		e, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return q, false
		}
		exponent = int32(e) // wrapped, as ParseQuantity does
	}
	if !hasDigit && !fastPath(decimal, exponent, q.binary, len(num), len(denom)) {
		// ParseQuantity's slow path reads the number with inf.Dec, which wants a digit.
		return q, false
	}
	q.digits = num + denom
	q.exp = int64(exponent) - int64(len(denom))
	return q, true
}

// fastPath is whether ParseQuantity computes a value with no digits in int64, in int32
// arithmetic as it does (its maxInt64Factors is 18, its Nano -9).
func fastPath(decimal bool, exponent int32, binary uint, num, denom int) bool {
	if num == 0 {
		num = 1 // it reads an empty numerator as "0"
	}
	var precision, scale int32
	switch {
	case decimal:
		scale = exponent
		precision = 18 - int32(num+denom)
	case denom == 0:
		precision = 15 - int32(num) - int32(float32(binary)*3/10) - 1
	default:
		precision = -1
	}
	return precision >= 0 && scale-int32(denom) >= -9
}

func digitsFrom(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// normal is a quantity's value in one form: ±digits × 10^exp, digits without leading or
// trailing zeros ("" for zero).
type normal struct {
	neg    bool
	digits string
	exp    int64
}

func (x normal) sign() int {
	switch {
	case x.digits == "":
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// cmp orders two values: by sign, then by the place of the first digit, then digit by digit.
func (x normal) cmp(y normal) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return compareInts(int64(sx), int64(sy))
	}
	m := compareInts(int64(len(x.digits))+x.exp, int64(len(y.digits))+y.exp)
	if m == 0 {
		a, b := x.digits, y.digits
		if len(a) < len(b) {
			a += strings.Repeat("0", len(b)-len(a))
		} else {
			b += strings.Repeat("0", len(a)-len(b))
		}
		m = strings.Compare(a, b)
	}
	return sx * m
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// maxBinary is ParseQuantity's cap on values with a binary suffix, 2^63-1.
const maxBinary = "9223372036854775807"

// value is the value the API server stores for q, computed on the decimal digits: in time
// linear in their number (big.Int's parsing is quadratic).
func (q quantity) value() normal {
	d := strings.TrimLeft(q.digits, "0")
	if d == "" {
		return normal{}
	}
	exp := q.exp
	if q.binary > 0 {
		d = mulSmall(d, 1<<q.binary)
	}
	if exp < -9 {
		// Rounded up (away from zero) to the nano.
		if k := -9 - exp; int64(len(d)) <= k {
			d = "1"
		} else {
			kept, dropped := d[:len(d)-int(k)], d[len(d)-int(k):]
			if d = kept; strings.Trim(dropped, "0") != "" {
				d = addOne(d)
			}
		}
		exp = -9
	}
	if q.binary > 0 && aboveMaxBinary(d, exp) {
		d, exp = maxBinary, 0
	}
	t := strings.TrimRight(d, "0")
	return normal{neg: q.neg, digits: t, exp: exp + int64(len(d)-len(t))}
}

// mulSmall is the decimal d times m (m < 2^60, so no step overflows).
func mulSmall(d string, m uint64) string {
	buf := make([]byte, len(d)+20)
	i := len(buf)
	var carry uint64
	for j := len(d) - 1; j >= 0; j-- {
		x := uint64(d[j]-'0')*m + carry
		i--
		buf[i], carry = byte('0'+x%10), x/10
	}
	for ; carry > 0; carry /= 10 {
		i--
		buf[i] = byte('0' + carry%10)
	}
	return strings.TrimLeft(string(buf[i:]), "0")
}

// addOne is the decimal d plus one.
func addOne(d string) string {
	b := []byte(d)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// aboveMaxBinary is whether d × 10^exp (no leading zeros, exp at most 0) exceeds maxBinary.
func aboveMaxBinary(d string, exp int64) bool {
	n := int64(len(d)) + exp // digits before the point
	if n <= 0 {
		return false
	}
	whole, frac := d[:n], d[n:]
	if len(whole) != len(maxBinary) {
		return len(whole) > len(maxBinary)
	}
	return whole > maxBinary || whole == maxBinary && strings.Trim(frac, "0") != ""
}
