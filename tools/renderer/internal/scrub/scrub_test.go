package scrub

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestURLs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://user:password@example.com/r.git", "https://example.com/r.git"},
		{"https://gitlab-ci-token:glcbt-64_abcDEF@gitlab.example.com/g/p.git", "https://gitlab.example.com/g/p.git"},
		{"https://x-access-token:ghs_abc123@github.com/o/r", "https://github.com/o/r"},
		{"https://ghp_abc123@github.com/o/r", "https://github.com/o/r"},
		{"ssh://git@host:22/r.git", "ssh://host:22/r.git"},
		{"https://user:p@ss@host/x", "https://host/x"},
		{"https://user:p%40ss@host/x", "https://host/x"},
		{`Get "https://admin:***@127.0.0.1:6443/api": dial tcp`, `Get "https://127.0.0.1:6443/api": dial tcp`},
		{"fatal: unable to access 'https://u:tok@h/r.git/': 403", "fatal: unable to access 'https://h/r.git/': 403"},
		{"two: http://a:b@h1/ and https://c@h2", "two: http://h1/ and https://h2"},
		{"https://h/r?access_token=abc&ref=main", "https://h/r?access_token=" + Placeholder + "&ref=main"},
		{"https://b.s3/o?X-Amz-Signature=f00d&X-Amz-Credential=AK%2F1", "https://b.s3/o?X-Amz-Signature=" + Placeholder + "&X-Amz-Credential=" + Placeholder},
		// Unchanged: no userinfo, an @ in the path, an scp-like address, an e-mail address.
		{"https://example.com/r.git", "https://example.com/r.git"},
		{"https://h/users/@me", "https://h/users/@me"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"mail krm@example.com", "mail krm@example.com"},
		{"https://h/?tokens=1&monkey=2", "https://h/?tokens=1&monkey=2"},
	} {
		if got := URLs(c.in); got != c.want {
			t.Errorf("URLs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFromURLAndMask(t *testing.T) {
	secrets := FromURL("https://gitlab-ci-token:s3cr%2Ft0ken@gitlab.example.com/g/p.git?private_token=qwerty123")
	msg := "remote: token s3cr/t0ken (s3cr%2Ft0ken) and qwerty123 refused for gitlab-ci-token"
	got := Mask(msg, secrets...)
	for _, s := range []string{"s3cr/t0ken", "s3cr%2Ft0ken", "qwerty123", "gitlab-ci-token"} {
		if strings.Contains(got, s) {
			t.Errorf("Mask left %q: %s", s, got)
		}
	}
	if FromURL("https://example.com/r.git") != nil {
		t.Errorf("FromURL of a URL without credentials: %q", FromURL("https://example.com/r.git"))
	}
	if got := Mask("ab ab", "ab"); got != "ab ab" {
		t.Errorf("Mask replaced a secret shorter than MinSecret: %q", got)
	}
}

func TestFromAuthorization(t *testing.T) {
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:hunter22"))
	for _, c := range []struct {
		header string
		leaks  []string
	}{
		{"Bearer eyJhbGciOi.payload.sig", []string{"Bearer eyJhbGciOi.payload.sig", "eyJhbGciOi.payload.sig"}},
		{basic, []string{basic, "hunter22", "admin:hunter22"}},
	} {
		body := "echo: " + strings.Join(c.leaks, " | ")
		got := Mask(body, FromAuthorization(c.header)...)
		for _, l := range c.leaks {
			if strings.Contains(got, l) {
				t.Errorf("%s: %q left in %q", c.header, l, got)
			}
		}
	}
	if FromAuthorization("") != nil {
		t.Error("FromAuthorization(\"\") is not nil")
	}
}

func TestMessage(t *testing.T) {
	long := strings.Repeat("é", MaxMessageBytes) // two bytes each
	got := Message(long)
	if len(got) > MaxMessageBytes+40 || !strings.Contains(got, "more bytes)") {
		t.Errorf("Message of %d bytes: %d bytes, %q...", len(long), len(got), got[len(got)-30:])
	}
	if !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("Message cut inside a character: %q", got[:8])
	}
	lines := strings.Repeat("line\n", 100)
	if got := Message(lines); strings.Count(got, "\n") != MaxMessageLines-1 {
		t.Errorf("Message of 100 lines has %d", strings.Count(got, "\n")+1)
	}
	if got := Message("forbidden: token tok-123456 at https://u:p@h/", "tok-123456"); got != "forbidden: token "+Placeholder+" at https://h/" {
		t.Errorf("Message: %q", got)
	}
	if got := Message("short"); got != "short" {
		t.Errorf("Message(short) = %q", got)
	}
}
