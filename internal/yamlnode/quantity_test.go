package yamlnode

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// quantities are texts on both sides of resource.ParseQuantity's rules; random ones below.
var quantities = []string{
	"", "0", "00", "-0", "+", "-", ".", "+.", ".5", "+.5", "-.5", "1.", "01", "1.5Gi", "-1Gi",
	"1.Gi", ".Ki", "Ki", "Ti", "Pi", "Ei", "k", "m", "e3", ".e3", "e-10", ".e-10", "+e-10",
	"1e", "1e+", "1e-", "1E", "1E3", "1e-3", "1e+03", "1E-3", "1e3Mi", "1e3m", "1ee3", "1e1.5",
	"1e3.", "1ki", "1K", "1Ki", "1u", "1n", "1m", "+1m", "1.5E", "1.e3", "1.5.5", "1..", "..5",
	" 1", "1 ", "5k ", "\t5", "1_000", "0x10", "inf", "NaN", "١", "lots", "8Ei", "9Ei", "10Ei",
	"-9Ei", "1.0000000001", "0.0000000001", "-0.0000000001", "1e-10", "1.0000000001Ki",
	"1234567890123456789", "1234567890123456789.", "12345678901234567890123456789Mi",
	"1e99999999999999999999", "0.000000000000000000000000001e-5",
	"9007199254740991.99951171875Ki", "9007199254740991.9990234375Ki", // 2^63-1 + 0.5, 2^63-1
}

func randomQuantities(n int) []string {
	r := rand.New(rand.NewSource(1))
	signs := []string{"", "", "+", "-"}
	zeros := []string{"", "", "0", "00"}
	suffixes := []string{"", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi",
		"Ti", "Pi", "Ei", "e", "E", "e+", "ki", "K", "x", "mi", "mM", ".", " ", "i", "e3.5"}
	digits := func() string {
		var b strings.Builder
		for i := r.Intn(4) * r.Intn(8); i > 0; i-- {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		return b.String()
	}
	out := make([]string, n)
	for i := range out {
		s := signs[r.Intn(len(signs))] + zeros[r.Intn(len(zeros))] + digits()
		if r.Intn(2) == 0 {
			s += "." + digits()
		}
		if r.Intn(4) == 0 {
			// An exponent within what ParseQuantity computes in good time.
			s += []string{"e", "E"}[r.Intn(2)] + signs[r.Intn(len(signs))] + []string{"0", "3", "9", "10", "12", "18", "19", "25", "40"}[r.Intn(9)]
		} else {
			s += suffixes[r.Intn(len(suffixes))]
		}
		out[i] = s
	}
	return out
}

// k8sValue is ParseQuantity's value of q in the form of value.
func k8sValue(q resource.Quantity) normal {
	d := q.AsDec()
	u := d.UnscaledBig()
	s := u.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	t := strings.TrimRight(s, "0")
	if t == "" {
		return normal{}
	}
	return normal{neg: neg, digits: t, exp: -int64(d.Scale()) + int64(len(s)-len(t))}
}

func TestQuantitiesAreParseQuantitys(t *testing.T) {
	for _, s := range append(quantities, randomQuantities(20000)...) {
		want, err := resource.ParseQuantity(s)
		q, ok := parseQuantity(s)
		if ok != (err == nil) {
			t.Errorf("IsQuantity(%q) = %v; ParseQuantity's error: %v", s, ok, err)
			continue
		}
		if !ok {
			continue
		}
		if got, want := q.value(), k8sValue(want); got != want {
			t.Errorf("value of %q = %+v, ParseQuantity's %+v", s, got, want)
		}
	}
}

func TestSameQuantity(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"0.5", "500m", true},
		{"1Gi", "1024Mi", true},
		{"1k", "1000", true},
		{"1e3", "1k", true},
		{"100u", "0.0001", true},
		{"0.0000000001", "1n", true}, // rounded up to the nano, as the API server stores it
		{"-0.0000000001", "-1n", true},
		{"8Ei", "9Ei", true}, // capped at 2^63-1
		{"0", "-0", true},
		{"0.5", "501m", false},
		{"1", "-1", false},
		{"1e3m", "1", false}, // not a quantity: an exponent and a suffix
		{"lots", "lots", false},
	} {
		if got := SameQuantity(c.a, c.b); got != c.want {
			t.Errorf("SameQuantity(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// ParseQuantity does not return on these; the port takes no longer than on others.
func TestQuantityHugeExponents(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"1e-2147483648", "1n"},
		{"5e2147483647", "50e2147483646"},
		{"1e2147483648", "1n"}, // wraps to -2^31, as ParseQuantity reads it
		{"1" + strings.Repeat("0", 5000) + "e-1000000", "1n"},
	} {
		if !SameQuantity(c.a, c.b) {
			t.Errorf("SameQuantity(%.20q, %q) = false, want true", c.a, c.b)
		}
	}
}

// A quantity of millions of digits (a live object may hold one) takes time linear in them:
// big.Int's parsing of these would take minutes.
func TestQuantityLongDigits(t *testing.T) {
	zeros := strings.Repeat("0", 4<<20)
	start := time.Now()
	for _, c := range []struct{ a, b string }{
		{"1" + zeros, "1e" + strconv.Itoa(len(zeros))},
		{"1" + zeros + "Ki", "8Ei"}, // both capped
		{"0." + zeros + "1", "1n"},
		{"1." + zeros + "1Mi", "1048576.000000001"},
	} {
		if !SameQuantity(c.a, c.b) {
			t.Errorf("SameQuantity(%.20q..., %q) = false, want true", c.a, c.b)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("four quantities of 4M digits took %v", d)
	}
}

// TestCompareQuantityIsCmp: CompareQuantity orders quantities as resource.Quantity.Cmp does,
// on the fixed texts and random ones, pairwise.
func TestCompareQuantityIsCmp(t *testing.T) {
	var qs []string
	for _, s := range append(append([]string{}, quantities...), randomQuantities(150)...) {
		if _, err := resource.ParseQuantity(s); err == nil && len(s) < 40 {
			qs = append(qs, s)
		}
	}
	qs = append(qs, "2", "1500m", "1.5", "100m", "0.1", "1Gi", "1073741824", "1G", "-1", "-2", "-1500m")
	for _, a := range qs {
		qa := resource.MustParse(a)
		for _, b := range qs {
			got, ok := CompareQuantity(a, b)
			if want := qa.Cmp(resource.MustParse(b)); !ok || got != want {
				t.Fatalf("CompareQuantity(%q, %q) = %d, %v; Cmp says %d", a, b, got, ok, want)
			}
		}
	}
	if _, ok := CompareQuantity("lots", "1"); ok {
		t.Error(`CompareQuantity("lots", "1"): ok, want not`)
	}
}
