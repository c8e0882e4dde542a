package yamlnode

import (
	"bytes"
	"fmt"
)

// kio.ByteReader (kyaml/kio/byteio_reader.go, and so kustomize) splits a YAML stream where
// the regular expression `\n---.*\n` matches, after turning CRLF into LF: a line that starts
// with "---" ends the document before it, a line with only "---" at the start of the stream
// does not. NextSeparator and SplitDocuments split there too, scanning instead of matching.

// NextSeparator finds the first document separator in s at or after from: the document
// before it ends at end (the newline that starts the separator), the next one starts at
// next (after the newline that ends the separator line). With none, end is len(s) and next
// is -1. It slices nothing: resource files of CRDs run to megabytes.
func NextSeparator(s []byte, from int) (end, next int) {
	k := bytes.Index(s[from:], []byte("\n---"))
	if k < 0 {
		return len(s), -1
	}
	start := from + k
	nl := bytes.IndexByte(s[start+len("\n---"):], '\n')
	if nl < 0 {
		// No newline after it, so no later "\n---" either.
		return len(s), -1
	}
	return start, start + len("\n---") + nl + 1
}

// SplitDocuments returns the documents of the stream s as kio.ByteReader decodes them: each
// but the last ends with the newline before its separator. A separator line with more than
// a comment after its "---" is an error, worded as kio's. Turn CRLF into LF first, as kio
// does. An empty stream has no documents.
func SplitDocuments(s []byte) ([][]byte, error) {
	if len(s) == 0 {
		return nil, nil
	}
	var docs [][]byte
	prev := 0
	for {
		end, next := NextSeparator(s, prev)
		if next < 0 {
			return append(docs, s[prev:]), nil
		}
		if rest := bytes.TrimSpace(s[end+len("\n---") : next]); len(rest) > 0 && rest[0] != '#' {
			return nil, fmt.Errorf("invalid document separator: %s", bytes.TrimSpace(s[end:next]))
		}
		docs = append(docs, s[prev:end+1:end+1])
		prev = next
	}
}
