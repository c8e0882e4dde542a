// Package scrub takes credentials out of text krm prints or publishes: the userinfo of every
// URL (https://user:password@host, https://TOKEN@host, GitLab's gitlab-ci-token:TOKEN@),
// the values of query parameters named like credentials (access_token=, X-Amz-Signature=),
// and any occurrence of a secret the caller knows (the bearer token a request carried), and it
// bounds a message that came from a server.
//
// It knows nothing of Kubernetes or git: package cluster scrubs what API servers answer,
// package publish what it records and what git prints.
package scrub

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Placeholder stands where a secret was: a bare word, so that a URL holding it stays a URL
// (and JSON does not escape it).
const Placeholder = "REDACTED"

// Bounds of a server's message as krm prints it.
const (
	MaxMessageBytes = 1 << 10
	MaxMessageLines = 8
)

// MinSecret is the shortest secret Mask replaces: a shorter "token" protects nothing, and
// replacing every "ab" would make messages unreadable.
const MinSecret = 6

// userinfo is a URL's scheme and authority up to its last '@' before the path: the userinfo
// cannot hold an unencoded '/', '?', '#' or space, and a quote ends a quoted URL.
var userinfo = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\s"'<>@]*(?:@[^/?#\s"'<>@]*)*@`)
})

// credentialQuery is a query parameter whose value is a credential: tokens, passwords,
// signatures (S3 and GCS signed URLs, Azure SAS sig=).
var credentialQuery = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([?&](?:access_token|private_token|id_token|refresh_token|token|auth|password|passwd|pwd|secret|client_secret|api_key|apikey|key|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)=)[^&#\s"'<>]*`)
})

// URLs is text with the userinfo of every URL removed (scheme://user:pw@host → scheme://host)
// and the values of credential query parameters replaced. scp-like git addresses
// (git@host:path) keep their login: it is an SSH user name, never a password.
func URLs(text string) string {
	text = userinfo().ReplaceAllString(text, "$1")
	return credentialQuery().ReplaceAllString(text, "${1}"+Placeholder)
}

// Mask is text with every occurrence of each secret (those of MinSecret bytes or more)
// replaced by Placeholder.
func Mask(text string, secrets ...string) string {
	for _, s := range secrets {
		if len(s) >= MinSecret {
			text = strings.ReplaceAll(text, s, Placeholder)
		}
	}
	return text
}

// FromURL lists the credentials a URL carries: its user name and password, and the values of
// its credential query parameters, for Mask (a server or git may print them without the URL).
func FromURL(raw string) []string {
	var out []string
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
		// As written, percent-escapes and all: how a message may quote it.
		user, pw, _ := strings.Cut(u.User.String(), ":")
		out = append(out, user, pw)
	}
	for _, m := range credentialQuery().FindAllStringSubmatch(raw, -1) {
		if v := strings.TrimPrefix(m[0], m[1]); v != "" {
			out = append(out, v)
			if d, err := url.QueryUnescape(v); err == nil && d != v {
				out = append(out, d)
			}
		}
	}
	return out
}

// FromAuthorization lists the secrets of an HTTP Authorization header's value: the value, its
// credentials after the scheme (a bearer token), and for Basic the decoded user:password,
// user and password.
func FromAuthorization(value string) []string {
	if value == "" {
		return nil
	}
	out := []string{value}
	scheme, cred, ok := strings.Cut(value, " ")
	if !ok {
		return out
	}
	cred = strings.TrimSpace(cred)
	out = append(out, cred)
	if strings.EqualFold(scheme, "Basic") {
		if d, err := base64.StdEncoding.DecodeString(cred); err == nil {
			user, pw, _ := strings.Cut(string(d), ":")
			out = append(out, string(d), pw, user)
		}
	}
	return out
}

// Message is a server's message as krm prints it: credentials masked and URLs scrubbed first,
// then cut to MaxMessageLines lines and MaxMessageBytes bytes (on a UTF-8 boundary), saying
// how much was left out.
func Message(text string, secrets ...string) string {
	text = strings.TrimSpace(URLs(Mask(text, secrets...)))
	total := len(text)
	cut := false
	if lines := strings.SplitN(text, "\n", MaxMessageLines+1); len(lines) > MaxMessageLines {
		text, cut = strings.Join(lines[:MaxMessageLines], "\n"), true
	}
	if len(text) > MaxMessageBytes {
		n := MaxMessageBytes
		for n > 0 && !utf8Start(text[n]) {
			n--
		}
		text, cut = text[:n], true
	}
	if cut {
		text += fmt.Sprintf(" ... (%d more bytes)", total-len(text))
	}
	return text
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
