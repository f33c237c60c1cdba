package egress

import (
	"errors"
	"net/netip"
	"testing"
)

func TestParseNormalizes(t *testing.T) {
	p, err := Parse(ModeAllowlist, []string{" Example.COM. ", "*.Pkg.Dev", "10.0.0.0/8", "2001:DB8::1", "192.0.2.7", "2001:db8::/32"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com", "*.pkg.dev", "10.0.0.0/8", "2001:db8::1", "192.0.2.7", "2001:db8::/32"}
	got := p.Entries()
	if len(got) != len(want) {
		t.Fatalf("entries %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("entries %v, want %v", got, want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		"", "com", "localhost", "*.com", "*.co.uk", "*.github.io", "*.test", "*", "*.",
		"http://example.com", "example.com:443", "example.com/path", "a*.example.com", "*.*.example.com",
		"exa_mple.com", "-x.example.com", "*.10.0.0.1", "1.2.3.4/8", "fe80::1%eth0", "[2001:db8::1]", "1.2.3.999",
		"é.example.com",
	} {
		_, err := Parse(ModeAllowlist, []string{bad})
		var ee *EntryError
		if !errors.As(err, &ee) {
			t.Errorf("Parse(%q) = %v, want an EntryError", bad, err)
		}
	}
	if _, err := Parse(ModeDeny, []string{"example.com"}); err == nil {
		t.Error("hosts with the deny mode were accepted")
	}
	if _, err := Parse("open", nil); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

func TestMatching(t *testing.T) {
	p, err := Parse(ModeAllowlist, []string{"example.com", "*.example.org", "192.0.2.0/24", "2001:db8::5"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{
		"example.com": true, "EXAMPLE.com.": true, "www.example.com": false, "example.com.evil.test": false,
		"example.org": false, "a.example.org": true, "a.b.example.org": true, "badexample.org": false,
		"192.0.2.1": false, // an address is never admitted as a name
	}
	for n, want := range names {
		if got := p.AllowsName(n); got != want {
			t.Errorf("AllowsName(%q) = %v, want %v", n, got, want)
		}
	}
	addrs := map[string]bool{"192.0.2.9": true, "192.0.3.1": false, "2001:db8::5": true, "2001:db8::6": false, "::ffff:192.0.2.9": true}
	for a, want := range addrs {
		if got := p.AllowsAddr(netip.MustParseAddr(a)); got != want {
			t.Errorf("AllowsAddr(%s) = %v, want %v", a, got, want)
		}
	}
	empty, _ := Parse(ModeAllowlist, nil)
	if empty.AllowsName("example.com") || empty.AllowsAddr(netip.MustParseAddr("192.0.2.1")) {
		t.Error("an allowlist without hosts admitted something")
	}
}
