// Command gen writes the OpenAPI v3 documents of the Kubernetes built-in kinds, as the test
// API server (dev/testing/apiserver, docs/apiserver.md) serves them at /openapi/v3, into
// tools/renderer/internal/validate/schemas/vMAJOR.MINOR/: one gzip file per group-version,
// keys sorted, descriptions dropped, so that a run on the same server version writes the same
// bytes. See schemas/README.md.
//
//	dev/scripts/install-apiserver.sh
//	go run ./tools/renderer/dev/schemagen
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/apiserver"
)

func main() {
	out := flag.String("out", "tools/renderer/internal/validate/schemas", "the schemas directory; the documents go to OUT/vMAJOR.MINOR")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := apiserver.StartProcess(ctx, "")
	if err != nil {
		return err
	}
	defer s.Stop()
	get := func(path string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+s.AdminToken)
		resp, err := s.Client().Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		return b, err
	}
	var ver struct{ Major, Minor string }
	b, err := get("/version")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &ver); err != nil {
		return fmt.Errorf("/version: %w", err)
	}
	dir := filepath.Join(out, "v"+ver.Major+"."+strings.TrimSuffix(ver.Minor, "+"))
	var index struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if b, err = get("/openapi/v3"); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &index); err != nil {
		return fmt.Errorf("/openapi/v3: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var names []string
	for p := range index.Paths {
		names = append(names, p)
	}
	sort.Strings(names)
	groupVersion := regexp.MustCompile(`^(api/v1|apis/[a-z0-9.-]+/v[0-9a-z]+)$`)
	for _, p := range names {
		if !groupVersion.MatchString(p) {
			continue // api, apis, version, .well-known, logs: no kinds
		}
		b, err := get(index.Paths[p].ServerRelativeURL)
		if err != nil {
			return err
		}
		data, err := normalize(b)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		file := filepath.Join(dir, strings.ReplaceAll(p, "/", "_")+".json.gz")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		fmt.Println(file)
	}
	return nil
}

// normalize drops descriptions and paths (only components.schemas is used), sorts keys and
// compresses without a name or time, as gzip -n does.
func normalize(doc []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	components, _ := v["components"].(map[string]any)
	kept := map[string]any{"openapi": v["openapi"], "info": v["info"], "components": map[string]any{"schemas": components["schemas"]}}
	dropDescriptions(kept)
	js, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(js)
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func dropDescriptions(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["description"].(string); ok {
			delete(v, "description")
		}
		for _, c := range v {
			dropDescriptions(c)
		}
	case []any:
		for _, c := range v {
			dropDescriptions(c)
		}
	}
}
