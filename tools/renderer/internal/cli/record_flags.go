package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/stamp"
)

// commitKeys are the workspace status keys --source-commit-from reads, in this order, when
// --source-commit-key names none.
var commitKeys = []string{"STABLE_GIT_COMMIT", "STABLE_BUILD_SCM_REVISION", "BUILD_SCM_REVISION"}

// recordFlags are krm apply's flags of the generation record (package genrecord).
type recordFlags struct {
	manifests          []string
	commit, commitFrom string
	commitKey          string
	noRecord           bool
	outputPaths        outputPathFlags
}

func (r *recordFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&r.manifests, "provenance-manifest", nil, "a provenance manifest of the manifests (repeatable): each object's inputs digest is recorded with its generation")
	fs.StringVar(&r.commit, "source-commit", "", "the commit the manifests were rendered from, recorded with each object's generation")
	fs.StringVar(&r.commitFrom, "source-commit-from", "", "a Bazel workspace status file (stable-status.txt) to read --source-commit from: the value of --source-commit-key (the run targets of krm_deliver pass it under --stamp)")
	fs.StringVar(&r.commitKey, "source-commit-key", "", "the workspace status key of --source-commit-from (default: the first of "+strings.Join(commitKeys, ", ")+" it has)")
	fs.BoolVar(&r.noRecord, "no-record", false, "apply without recording generations (for a user who may not write the record's ConfigMap)")
	r.outputPaths.register(fs)
}

// outputPathFlags is --output-path, shared by apply, trace and status.
type outputPathFlags []string

func (p *outputPathFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar((*[]string)(p), "output-path", nil, "GROUP/KIND=PATH: where objects of a kind report the generation an output reflects, e.g. kpack.io/Image=.status.latestImage.observedGeneration (repeatable; conditions and status.observedGeneration need none)")
}

func (p outputPathFlags) parse() ([]genrecord.OutputPath, error) {
	var out []genrecord.OutputPath
	for _, s := range p {
		op, err := genrecord.ParseOutputPath(s)
		if err != nil {
			return nil, err
		}
		out = append(out, op)
	}
	return out, nil
}

// request is what to record: nil with --no-record or without an ApplySet (then the record
// flags are an error: the record is kept beside the set's parent).
func (r *recordFlags) request(applySet bool, stderr io.Writer) (*clustersupport.RecordRequest, []genrecord.OutputPath, error) {
	paths, err := r.outputPaths.parse()
	if err != nil {
		return nil, nil, err
	}
	given := len(r.manifests) > 0 || r.commit != "" || r.commitFrom != ""
	if r.noRecord {
		return nil, paths, nil
	}
	if !applySet {
		if given {
			return nil, nil, errors.New("--provenance-manifest and --source-commit are recorded beside an ApplySet: add --applyset NAME (or --no-record)")
		}
		return nil, paths, nil
	}
	if r.commit != "" && r.commitFrom != "" {
		return nil, nil, errors.New("--source-commit and --source-commit-from: give one")
	}
	req := &clustersupport.RecordRequest{Commit: r.commit, Warn: func(s string) { fmt.Fprintln(stderr, "Warning: "+s) }}
	if r.commitFrom != "" {
		var missing string
		if req.Commit, missing, err = commitFromStatus(r.commitFrom, r.commitKey); err != nil {
			return nil, nil, err
		}
		if missing != "" { // a stamped build without the key: recorded without a commit
			req.Warn(missing)
		}
	}
	for _, f := range r.manifests {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("--provenance-manifest: %w", err)
		}
		m, err := provmanifest.ReadManifest(data)
		if err != nil {
			return nil, nil, fmt.Errorf("--provenance-manifest %s: %w", f, err)
		}
		req.Manifests = append(req.Manifests, m)
	}
	return req, paths, nil
}

// commitFromStatus reads the commit from a workspace status file; without the key, it
// returns what to warn of instead.
func commitFromStatus(file, key string) (commit, missing string, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", "", fmt.Errorf("--source-commit-from: %w", err)
	}
	status := stamp.ParseStatus(data)
	keys := commitKeys
	if key != "" {
		keys = []string{key}
	}
	for _, k := range keys {
		if v := strings.TrimSpace(status[k]); v != "" {
			return v, "", nil
		}
	}
	return "", fmt.Sprintf("--source-commit-from %s: no %s in the workspace status, so generations are recorded without a commit: print it from --workspace_status_command (echo STABLE_GIT_COMMIT $(git rev-parse HEAD)), or name the key with --source-commit-key", file, strings.Join(keys, " or ")), nil
}
