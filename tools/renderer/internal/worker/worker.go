// Package worker runs krm as a Bazel persistent worker: one process serves
// many `krm render` actions, so that each pays neither a process start nor
// (workers run outside the sandbox) a sandbox. Rendering stays hermetic
// without one: the renderer reads only the inputs its --input flags
// declare.
//
// The protocol is Bazel's (src/main/protobuf/worker_protocol.proto): the
// worker reads WorkRequests from stdin and writes one WorkResponse per
// request to stdout, each a protocol buffer preceded by its length as a
// varint. A singleplex worker gets one request at a time, with request_id
// 0; a multiplex worker gets requests with ids while others still run, and
// answers each when it is done, in any order.
package worker

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
)

// Flag is the argument Bazel adds to a worker's command line.
const Flag = "--persistent_worker"

// maxMessage bounds the size of one message (a request's arguments list
// every declared input; a few MB at most in practice).
const maxMessage = 256 << 20

// maxArguments bounds the arguments of one request (one per declared input; a render of
// tens of thousands of inputs is far below it): each costs a string, so that 256 MB of empty
// ones would cost 4 GB.
const maxArguments = 1 << 20

// Request is the part of a WorkRequest krm uses.
type Request struct {
	Arguments []string
	ID        int32
}

// Response is a WorkResponse.
type Response struct {
	ExitCode int32
	Output   string
	ID       int32
}

// maxInFlight bounds the requests a multiplex worker runs at once (Bazel sends at most
// --worker_max_multiplex_instances, 8 by default): a render holds its whole tree in memory.
const maxInFlight = 8

// Serve reads requests from r until it ends, runs each with do (the
// request, and where to write what the action prints) and writes the
// responses to w: NewServer(w).Serve(r, do).
func Serve(r io.Reader, w io.Writer, do func(req Request, out io.Writer) int) error {
	return NewServer(w).Serve(r, do)
}

// A Server writes the responses of one worker process.
type Server struct {
	mu  sync.Mutex // serialises responses; guards err
	w   io.Writer
	err error // the first write's error
}

// NewServer returns a Server writing its responses to w.
func NewServer(w io.Writer) *Server { return &Server{w: w} }

// Respond writes resp whole, never interleaved with another: for a request
// that must be answered before do returns (krm ending the process).
func (s *Server) Respond(resp Response) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = WriteResponse(s.w, resp)
	}
	return s.err
}

func (s *Server) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Serve reads requests from r until it ends and runs each with do. A
// request with an id (a multiplex worker's) runs beside those still
// running, at most maxInFlight at once; one without runs alone. It returns
// nil when r ends between requests, once every response is written.
func (s *Server) Serve(r io.Reader, do func(req Request, out io.Writer) int) error {
	br := bufio.NewReader(r)
	var running sync.WaitGroup
	slots := make(chan struct{}, maxInFlight)
	serve := func(req Request) {
		var out bytes.Buffer
		code := do(req, &out)
		_ = s.Respond(Response{ExitCode: int32(code), Output: out.String(), ID: req.ID})
	}
	for {
		req, err := ReadRequest(br)
		if err != nil {
			running.Wait()
			if errors.Is(err, io.EOF) {
				return s.failed()
			}
			return err
		}
		if err := s.failed(); err != nil {
			running.Wait()
			return err
		}
		if req.ID == 0 {
			running.Wait() // a singleplex worker is never sent another before the answer
			serve(req)
			continue
		}
		slots <- struct{}{}
		running.Add(1)
		go func() {
			defer func() { <-slots; running.Done() }()
			serve(req)
		}()
	}
}

// ReadRequest reads one length-delimited WorkRequest. It returns io.EOF
// when r ends before a request starts.
func ReadRequest(r *bufio.Reader) (Request, error) {
	b, err := readMessage(r, "request")
	if err != nil {
		return Request{}, err
	}
	return parseRequest(b)
}

// readMessage reads one length-delimited message; io.EOF when r ends
// before one starts.
func readMessage(r *bufio.Reader, what string) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("worker %s: %w", what, err)
	}
	if n > maxMessage {
		return nil, fmt.Errorf("worker %s of %d bytes: more than %d", what, n, maxMessage)
	}
	// Read as it arrives, not allocated from the length: a length is a promise.
	b, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("worker %s: %w", what, err)
	}
	if uint64(len(b)) < n {
		return nil, fmt.Errorf("worker %s: %w", what, io.ErrUnexpectedEOF)
	}
	return b, nil
}

// parseRequest decodes a WorkRequest: arguments (field 1) and request_id
// (field 3); inputs, cancel, verbosity and sandbox_dir are skipped.
func parseRequest(b []byte) (Request, error) {
	var req Request
	var over bool
	err := decode(b, "request", func(f field) {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			if len(req.Arguments) == maxArguments {
				over = true
				return
			}
			req.Arguments = append(req.Arguments, string(f.bytes))
		case f.num == 3 && f.typ == protowire.VarintType:
			req.ID = int32(f.varint)
		}
	})
	if err == nil && over {
		err = fmt.Errorf("worker request: more than %d arguments", maxArguments)
	}
	return req, err
}

// field is one field of a message.
type field struct {
	num    protowire.Number
	typ    protowire.Type
	varint uint64 // a varint's value
	bytes  []byte // a length-delimited value
}

// decode calls each for every field of the message b.
func decode(b []byte, what string, each func(field)) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("worker %s: %w", what, protowire.ParseError(n))
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("worker %s field %d: %w", what, num, protowire.ParseError(n))
		}
		b = b[n:]
		each(f)
	}
	return nil
}

// WriteResponse writes resp, length-delimited, as a WorkResponse:
// exit_code (1), output (2), request_id (3); zero values are left out, as
// protocol buffers encode them.
func WriteResponse(w io.Writer, resp Response) error {
	var msg []byte
	if resp.ExitCode != 0 {
		msg = protowire.AppendTag(msg, 1, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(int64(resp.ExitCode)))
	}
	if resp.Output != "" {
		msg = protowire.AppendTag(msg, 2, protowire.BytesType)
		msg = protowire.AppendString(msg, resp.Output)
	}
	if resp.ID != 0 {
		msg = protowire.AppendTag(msg, 3, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(int64(resp.ID)))
	}
	out := protowire.AppendVarint(make([]byte, 0, len(msg)+binary.MaxVarintLen64), uint64(len(msg)))
	_, err := w.Write(append(out, msg...))
	return err
}

// The client side, as Bazel speaks it (krm's tests drive workers with it).

// WriteRequest writes a WorkRequest with args and id, length-delimited.
func WriteRequest(w io.Writer, id int32, args ...string) error {
	var msg []byte
	for _, a := range args {
		msg = protowire.AppendTag(msg, 1, protowire.BytesType)
		msg = protowire.AppendString(msg, a)
	}
	if id != 0 {
		msg = protowire.AppendTag(msg, 3, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(int64(id)))
	}
	_, err := w.Write(append(protowire.AppendVarint(nil, uint64(len(msg))), msg...))
	return err
}

// ReadResponse reads one length-delimited WorkResponse; io.EOF when r ends
// before one starts.
func ReadResponse(r *bufio.Reader) (Response, error) {
	var resp Response
	b, err := readMessage(r, "response")
	if err != nil {
		return resp, err
	}
	err = decode(b, "response", func(f field) {
		switch {
		case f.num == 1 && f.typ == protowire.VarintType:
			resp.ExitCode = int32(f.varint)
		case f.num == 2 && f.typ == protowire.BytesType:
			resp.Output = string(f.bytes)
		case f.num == 3 && f.typ == protowire.VarintType:
			resp.ID = int32(f.varint)
		}
	})
	return resp, err
}
