package publish

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
)

// A source repository URL with credentials (GitLab CI's $CI_REPOSITORY_URL is
// https://gitlab-ci-token:TOKEN@host/...) is published without them: not in
// hydrator.metadata, the commit message or the progress lines.
func TestSourceRepoURLCredentialsNotPublished(t *testing.T) {
	needGit(t)
	for _, c := range []struct{ url, want, secret string }{
		{"https://gitlab-ci-token:glcbt-64_s3cretJobToken@gitlab.example.com/g/p.git", "https://gitlab.example.com/g/p.git", "glcbt-64_s3cretJobToken"},
		{"https://x-access-token:ghs_s3cretInstallToken@github.com/o/r.git", "https://github.com/o/r.git", "ghs_s3cretInstallToken"},
		{"https://ghp_s3cretPersonalToken@github.com/o/r.git", "https://github.com/o/r.git", "ghp_s3cretPersonalToken"},
		{"https://alice:pa55w0rd-s3cret@git.example.com/r.git", "https://git.example.com/r.git", "pa55w0rd-s3cret"},
		{"https://git.example.com/r.git?private_token=s3cretQueryToken", "https://git.example.com/r.git?private_token=REDACTED", "s3cretQueryToken"},
	} {
		t.Run(c.url, func(t *testing.T) {
			repo := newBare(t)
			o := options(t, repo, sha1)
			o.RepoURL = c.url
			o.Commands = []string{"git clone " + c.url + " && bazel build //deploy:prod"}
			var log bytes.Buffer
			o.Log = &log
			res := publishOK(t, o, manifests(t, map[string]string{"prod": "kind: A\n"}))
			meta := tree(t, repo, res.Commit)[hydrated.MetadataFile]
			msg := gitOut(t, "--git-dir="+repo, "log", "-1", "--format=%B", res.Commit)
			for what, text := range map[string]string{hydrated.MetadataFile: meta, "the commit message": msg, "the progress lines": log.String()} {
				if strings.Contains(text, c.secret) {
					t.Errorf("%s holds %q:\n%s", what, c.secret, text)
				}
			}
			if !strings.Contains(meta, `"repoURL": "`+c.want+`"`) || !strings.Contains(msg, "Source repository: "+c.want) {
				t.Errorf("want repoURL %s:\n%s\n%s", c.want, meta, msg)
			}
		})
	}
}

// What git prints that krm relays (a server's "remote:" lines, a URL) holds
// no credential of --repo.
func TestGitOutputCredentialsNotRelayed(t *testing.T) {
	needGit(t)
	// The server asks for credentials, then quotes them: its 403 text is
	// relayed by git as "remote: ...".
	echo := hostile.Echo(http.StatusForbidden, "text/plain", func(r *http.Request) string {
		user, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(r.Header.Get("Authorization"), "Basic "))
		return "denied " + string(user) + " at http://" + string(user) + "@" + r.Host + r.URL.Path + "\n"
	})
	for _, userinfo := range []string{"x-access-token:ghs_s3cretInstallToken", "ghp_s3cretPersonalToken", "gitlab-ci-token:glcbt-s3cret%2Fslash"} {
		t.Run(userinfo, func(t *testing.T) {
			srv := hostile.New(t).Handle("", "", hostile.Challenge(echo))
			o := options(t, strings.Replace(srv.URL, "http://", "http://"+userinfo+"@", 1)+"/r.git", sha1)
			o.TempDir = t.TempDir()
			_, err := Publish(context.Background(), o, manifests(t, map[string]string{"prod": "kind: A\n"}))
			if err == nil || !strings.Contains(err.Error(), "cannot reach the repository "+srv.URL+"/r.git") {
				t.Fatalf("got %v, want the repository named without credentials", err)
			}
			if len(srv.Requests()) < 2 {
				t.Fatalf("git did not answer the challenge:\n%s", srv.Seen())
			}
			for _, s := range strings.Split(strings.ReplaceAll(userinfo, "%2F", "/"), ":") {
				if strings.Contains(err.Error(), s) {
					t.Errorf("the error holds %q: %v", s, err)
				}
			}
		})
	}
}
