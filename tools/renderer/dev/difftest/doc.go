// Package difftest holds the differential test suite for krm: every case under
// testdata/cases is a kustomization tree whose expected output (or error) was
// recorded by running the reference kustomize binary (v5.8.2).
//
// Layout of a case directory testdata/cases/<name>/:
//
//	tree/            the kustomization tree (input files)
//	target           optional, one line: directory to build, relative to tree/ (default ".")
//	args             optional, one line: extra kustomize flags; only
//	                 "--load-restrictor LoadRestrictionsNone" is understood
//	expected.yaml    golden: kustomize's stdout when the build succeeds, or
//	expected.err     golden: kustomize's stderr when the build fails, with the
//	                 absolute path of tree/ replaced by $TREE (and Go pointer
//	                 values such as 0xc000123456, which vary between runs, by 0xADDR)
//	error_contains   for error cases: one substring per line that krm's error
//	                 message must contain ($TREE expands to the tree's path)
//	levels_error_contains  optional, one line: the case renders in one go but,
//	                 by design, not level by level through snapshots
//	                 (TestSnapshotLevels); krm's error there must contain it
//
// Modes:
//
//	go test ./tools/renderer/dev/difftest                  compare krm against the goldens (no kustomize needed)
//	go test ./tools/renderer/dev/difftest -run TestDifferential -update  regenerate goldens with kustomize
//	go test ./tools/renderer/dev/difftest -run TestDifferential -oracle  fail if kustomize disagrees with the goldens
//
// With -update or -oracle only the goldens are dealt with; krm is not run, so
// these modes work whatever the state of the engine. kustomize is found via
// $KUSTOMIZE, else <repo root>/.bin/kustomize, which is installed with
// `go install` when missing.
package difftest
