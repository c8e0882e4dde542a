package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
)

// liveDiffFlags are krm diff's flags for --cluster: a render against the live objects.
type liveDiffFlags struct {
	enabled bool
	force   bool
	cluster clusterFlags
}

func (l *liveDiffFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&l.enabled, "cluster", false, "compare MANIFESTS with the live objects: what krm apply would change (a server-side dry run)")
	fs.BoolVar(&l.force, "force-conflicts", false, "--cluster: diff as krm apply --force-conflicts would apply (else a conflict is an error)")
	l.cluster.register(fs, false)
}

// report diffs the manifests named by the arguments with the cluster.
func (l *liveDiffFlags) report(fs *pflag.FlagSet, stderr io.Writer) (*rdiff.Report, error) {
	if err := needManifests(fs, "diff --cluster"); err != nil {
		return nil, err
	}
	ctx := l.cluster.deadline.start()
	defer l.cluster.deadline.stop()
	cl, err := l.cluster.connect(ctx, fs.Args(), false, stderr)
	if err != nil {
		return nil, l.cluster.deadline.explain(err)
	}
	r, err := cl.Diff(ctx, clustersupport.DiffOptions{Force: l.force, Name: strings.Join(fs.Args(), " ")})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cl.Where(), l.cluster.deadline.explain(err)) // as apply and delete name the server
	}
	return r, nil
}
