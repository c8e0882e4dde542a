package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// MaxErrorBytes bounds what krm reads of an error response: a Status with many conflict
// causes fits, and client-go quotes no more than 2 KiB of a body that is not one.
const MaxErrorBytes = 64 << 10

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

// ServerError is an answer krm refuses before client-go reads it: a body that is not JSON (a
// proxy's or login page's HTML), or a Retry-After past the deadline. Its text names the
// request and quotes the server, bounded and escaped.
type ServerError struct {
	Server, Msg string
}

func (e *ServerError) Error() string { return "the API server " + e.Server + " " + e.Msg }

// guard is the innermost RoundTripper of every request krm sends, below client-go's
// authentication wrappers (rest.Config.Wrap), so it sees each request as it leaves:
//   - a redirect (any 3xx) is an error, never followed: net/http's client would repeat the
//     request at the Location, and client-go's wrappers would add the bearer token (static,
//     from a file or from an exec plugin) and the TLS client certificate there, and the body
//     (a Secret being applied) with them;
//   - what the server says that krm may print (an error response's status line and body, up
//     to MaxErrorBytes; every Warning header) has the request's credentials masked: the
//     Authorization header's value and token, a URL's user and password;
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
	secrets := append(scrub.FromAuthorization(req.Header.Get("Authorization")), scrub.FromURL(req.URL.String())...)
	if err := refused(req, resp, secrets); err != nil {
		resp.Body.Close()
		return nil, err
	}
	if ws := resp.Header.Values("Warning"); len(ws) > 0 {
		resp.Header["Warning"] = warnings(ws, secrets)
	}
	if resp.StatusCode/100 != 2 && resp.Body != nil {
		resp.Status = scrub.Message(resp.Status, secrets...)
		body, err := maskedBody(resp.Body, secrets)
		if err != nil {
			return nil, err
		}
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		resp.Header.Del("Content-Length")
		return resp, nil
	}
	if resp.Body != nil {
		resp.Body = &limitedBody{rc: resp.Body, left: MaxResponseBytes, url: req.URL.Path}
	}
	return resp, nil
}

// refused is the ServerError of an answer not worth reading: a 429 or 503 whose
// Retry-After is past the request's deadline (client-go would sleep until it), or a
// success whose body is not JSON.
func refused(req *http.Request, resp *http.Response, secrets []string) error {
	server := req.URL.Scheme + "://" + req.URL.Host
	what := req.Method + " " + req.URL.Path
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		after := resp.Header.Get("Retry-After")
		if secs, err := strconv.Atoi(strings.TrimSpace(after)); err == nil {
			if dl, ok := req.Context().Deadline(); ok && time.Until(dl) < time.Duration(secs)*time.Second {
				return &ServerError{Server: server, Msg: fmt.Sprintf("answered %s with %s and Retry-After: %d s, past the deadline (the command's, or the %s a request may take): try again later",
					what, escape.Line(scrub.Message(resp.Status, secrets...)), secs, RequestTimeout)}
			}
		}
	}
	if resp.StatusCode/100 != 2 || resp.Body == nil {
		return nil
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if ct == "" || mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "application/vnd.kubernetes.protobuf" || mt == "application/yaml" {
		return nil
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return &ServerError{Server: server, Msg: fmt.Sprintf("answered %s with %s, not JSON (a proxy or a login page in the way?): %s",
		what, escape.Line(scrub.Message(ct, secrets...)), escape.Line(scrub.Message(string(head), secrets...)))}
}

// maskedBody reads an error body, up to MaxErrorBytes, with the secrets masked and URLs
// scrubbed. It reads a secret's length further before masking, so that the cut cannot keep
// the start of one.
func maskedBody(rc io.ReadCloser, secrets []string) ([]byte, error) {
	defer rc.Close()
	extra := 0
	for _, s := range secrets {
		extra = max(extra, len(s))
	}
	data, err := io.ReadAll(io.LimitReader(rc, int64(MaxErrorBytes+extra)))
	if err != nil {
		return nil, err
	}
	data = []byte(scrub.URLs(scrub.Mask(string(data), secrets...)))
	if len(data) > MaxErrorBytes {
		data = data[:MaxErrorBytes]
	}
	return data, nil
}

// warnings are the Warning headers as client-go prints them, each text masked and bounded
// (scrub.Message); one that does not parse is said to be left out.
func warnings(headers, secrets []string) []string {
	ws, errs := utilnet.ParseWarningHeaders(headers)
	var out []string
	for _, w := range ws {
		if h, err := utilnet.NewWarningHeader(w.Code, w.Agent, scrub.Message(w.Text, secrets...)); err == nil {
			out = append(out, h)
		}
	}
	if len(errs) > 0 {
		out = append(out, `299 - "`+strconv.Itoa(len(errs))+` malformed warning(s) of the API server left out"`)
	}
	return out
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
