// Package integration holds the integration tests of rules_krm that drive Bazel
// (dev/testing/bazeltest): failing builds and their messages, incrementality and cache
// hits counted from execution logs, the e2e/bzlmod consumer, Gazelle on whole trees and the
// offline chroot.
// They carry the build tag bazel and run outside `bazel test`, from dev/scripts/test.sh:
//
//	go test -tags bazel -timeout 60m ./dev/testing/integration -run 'TestRules'
//
// Environment: KRM_DISK_CACHE (the shared disk cache), KRM_TEST_DIR (workspace copies and
// output bases kept between runs, default /tmp/rules_krm-tests), KRM_OFFLINE (1, the
// default: the Bazel of dev/offline/bazel7), KUSTOMIZE (default .bin/kustomize,
// installed when missing).
package integration
