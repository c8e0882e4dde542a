// Package starlarklib carries the rules_krm Starlark library: the .star
// files of this directory, which StarlarkRun scripts load as
// "@rules_krm//starlark:FILE". krm embeds them, so a script gets the
// library of the krm that runs it.
package starlarklib

import "embed"

// Files holds the library modules, named by their file names.
//
//go:embed *.star
var Files embed.FS
