package cluster

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// ErrRedirect is the error of a request the API server answered with a redirect.
var ErrRedirect = errors.New("krm does not follow redirects")

// RedirectError is an API server's redirect, refused.
type RedirectError struct {
	// From is the server's URL (scheme and host), To where it pointed, without credentials.
	From, To string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("API server %s redirected to %s: refused; %v", e.From, e.To, ErrRedirect)
}

func (e *RedirectError) Is(target error) bool { return target == ErrRedirect }

// guard is the innermost RoundTripper of every request krm sends, below client-go's
// authentication wrappers (rest.Config.Wrap), so it sees each request as it leaves:
//   - a redirect (any 3xx) is an error, never followed: net/http's client would repeat the
//     request at the Location, and client-go's wrappers would add the bearer token (static,
//     from a file or from an exec plugin) and the TLS client certificate there, and the body
//     (a Secret being applied) with them;
//   - every response body is bounded by MaxResponseBytes.
type guard struct{ rt http.RoundTripper }

func (g guard) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := g.rt.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode/100 == 3 {
		resp.Body.Close()
		return nil, redirected(req, resp)
	}
	if resp.Body != nil {
		resp.Body = &limitedBody{rc: resp.Body, left: MaxResponseBytes, url: req.URL.Path}
	}
	return resp, nil
}

// redirected is the error of a redirect: where it pointed, resolved against the request,
// without credentials and bounded (the server wrote it).
func redirected(req *http.Request, resp *http.Response) error {
	to := resp.Header.Get("Location")
	if u, err := req.URL.Parse(to); err == nil {
		to = u.String()
	}
	if to == "" {
		to = "nowhere (" + resp.Status + " without a Location)"
	}
	return &RedirectError{From: req.URL.Scheme + "://" + req.URL.Host, To: scrub.Message(to)}
}

type limitedBody struct {
	rc   io.ReadCloser
	left int64
	url  string
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("the API server's response to %s is larger than %d bytes", l.url, MaxResponseBytes)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.rc.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }
