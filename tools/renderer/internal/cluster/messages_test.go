package cluster

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// echoStatus is a Kubernetes Status whose message quotes the request's Authorization header,
// padded to pad bytes.
func echoStatus(code int, reason string, pad int) http.Handler {
	return hostile.Echo(code, "application/json", func(r *http.Request) string {
		msg := strings.ReplaceAll("denied for "+r.Header.Get("Authorization")+strings.Repeat(" x", pad/2), `"`, `'`)
		return `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"` + reason + `","code":` + strconv.Itoa(code) + `,"message":"` + msg + `"}`
	})
}

// What an API server says (bodies, Status messages, warnings, the status line) is printed
// bounded, with the request's credentials masked.
func TestServerMessagesRedacted(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	const path = "/api/v1/namespaces/default/secrets/s"
	for _, c := range []struct {
		name, op, method, path string
		h                      http.Handler
		// cut: the body is over MaxErrorBytes, so krm quotes none of it.
		cut bool
	}{
		{"403 text on discovery", "apply", "GET", "/version", hostile.EchoAuthorization(403), false},
		{"403 text on a discovery document", "apply", "GET", "/api/v1", hostile.EchoAuthorization(403), false},
		{"403 Status on apply", "apply", "PATCH", path, echoStatus(403, "Forbidden", 0), false},
		{"500 text on apply", "apply", "PATCH", path, hostile.EchoAuthorization(500), false},
		{"422 Status of 30 KiB on apply", "apply", "PATCH", path, echoStatus(422, "Invalid", 30<<10), false},
		{"422 Status of 200 KiB on apply", "apply", "PATCH", path, echoStatus(422, "Invalid", 200<<10), true},
		{"403 Status on delete", "delete", "DELETE", path, echoStatus(403, "Forbidden", 0), false},
		{"409 Status on diff", "diff", "PATCH", path, echoStatus(409, "Conflict", 0), false},
		{"403 text on get", "get", "GET", path, hostile.EchoAuthorization(403), false},
		{"status line", "apply", "GET", "/api/v1", echoStatusLine(), false},
		{"warning", "apply", "PATCH", path, echoWarning(), false},
	} {
		for _, cred := range credentials() {
			if cred.secrets == nil {
				continue // a client certificate's key never reaches the server
			}
			t.Run(c.name+" "+cred.name, func(t *testing.T) {
				api := hostile.NewTLS(t).Handle(c.method, c.path, c.h)
				fakeAPI(api)
				var warnings bytes.Buffer
				err := operations[c.op](t, request(writeKubeconfig(t, api.URL, api.CAPEM, cred.user(t)), &warnings), &warnings)
				msg := warnings.String()
				if err != nil {
					msg += err.Error()
				}
				if c.name != "warning" && err == nil {
					t.Fatal("no error")
				}
				for _, s := range cred.secrets {
					if strings.Contains(msg, s) {
						t.Errorf("the message holds the credential %q:\n%.2000s", s, msg)
					}
				}
				if !c.cut && !strings.Contains(msg, scrub.Placeholder) {
					t.Errorf("the message does not say a credential was there:\n%.2000s", msg)
				}
				if len(msg) > 4<<10 {
					t.Errorf("the message has %d bytes", len(msg))
				}
			})
		}
	}
}

// echoStatusLine answers 502 with the Authorization header as the status line's reason.
func echoStatusLine() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hostile.Raw("HTTP/1.1 502 "+r.Header.Get("Authorization")+"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").ServeHTTP(w, r)
	})
}

// echoWarning applies, with a warning quoting the Authorization header.
func echoWarning() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Warning", `299 - "you sent `+r.Header.Get("Authorization")+`"`)
		hostile.JSON(200, map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "s", "namespace": "default", "resourceVersion": "2"}}).ServeHTTP(w, r)
	})
}
