package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// cmdEdit runs edit_file calls as one session:
// devbroker edit [--root DIR] [--trust] [--json] CALLS.json|-
func cmdEdit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("edit", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the root directory; file_path must be inside it")
	trusted := trustFlag(fl)
	asJSON := fl.Bool("json", false, "print each call's result as one line of JSON instead of text: {path, text, revision, diff?, changed, replaced?, changed_after_write?}, or {error: {kind, message, retryable}}")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: devbroker edit [--root DIR] [--trust] [--json] CALLS.json|-")
		fmt.Fprintln(stderr, `CALLS is one edit_file call (a JSON object with the tool's parameters) or an array of calls run in order as one session; "tool": "read_file" or "write_file" selects a sibling tool.`)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return exitBadUsage
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return exitBadUsage
	}
	data, err := readInput(fl.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker edit: %v\n", err)
		return exitBadUsage
	}
	calls, err := splitCalls(data)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker edit: %v\n", err)
		return exitBadUsage
	}
	opts := engineOptions()
	fsys, err := rootfs.New(*root)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker edit: %v\n", err)
		return exitBadUsage
	}
	fsys = fsys.WithHooks(opts.Hooks)
	// A trusted project's per-file limit ([limits] max_file_bytes in
	// .devbroker.toml) bounds what the calls read, as in a session.
	limits, err := drivers.Limits(*root, trusted(*root))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker edit: %v\n", err)
		return exitBadUsage
	}
	sess := editfile.NewSession(fsys, nil)
	sess.SetMaxFileBytes(broker.ConfigLimits(limits).MaxFileBytes)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code := exitOK
	for i, call := range calls {
		res, err := dispatch(ctx, sess, call)
		if err != nil {
			code = exitNotOK
		}
		if *asJSON {
			// One line per call, as the MCP tool's structured content.
			var out any
			if err != nil {
				out = &wire.Failure{Error: wire.NewError(err)}
			} else {
				out = wire.NewFileResult(res)
			}
			enc := json.NewEncoder(stdout)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(out)
			continue
		}
		if len(calls) > 1 {
			fmt.Fprintf(stdout, "--- call %d\n", i+1)
		}
		if err != nil {
			fmt.Fprintf(stdout, "error (%s): %v\n", fault.KindOf(err), err)
			continue
		}
		fmt.Fprint(stdout, res.Text)
	}
	return code
}

// splitCalls accepts one JSON object or an array of them.
func splitCalls(data []byte) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var calls []json.RawMessage
		if err := json.Unmarshal(data, &calls); err != nil {
			return nil, fmt.Errorf("the calls are not a valid JSON array: %w", err)
		}
		if len(calls) == 0 {
			return nil, fmt.Errorf("the array of calls is empty")
		}
		return calls, nil
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("the call is not valid JSON: give an object of edit_file parameters, or an array of them")
	}
	return []json.RawMessage{data}, nil
}

// dispatch runs one call; "tool" picks edit_file (default), read_file or
// write_file.
func dispatch(ctx context.Context, sess *editfile.Session, call json.RawMessage) (*editfile.Result, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(call, &obj); err != nil {
		return nil, fault.New(fault.BadArgument, "each call must be a JSON object of parameters: %v", err)
	}
	tool := "edit_file"
	if raw, ok := obj["tool"]; ok {
		if err := json.Unmarshal(raw, &tool); err != nil {
			return nil, fault.New(fault.BadArgument, "tool must be a string")
		}
		delete(obj, "tool")
		call, _ = json.Marshal(obj)
	}
	switch tool {
	case "edit_file":
		return sess.Call(ctx, call)
	case "read_file":
		return sess.ReadFile(ctx, call)
	case "write_file":
		return sess.WriteFile(ctx, call)
	}
	return nil, fault.New(fault.BadArgument, "unknown tool %q: use edit_file, read_file or write_file", tool)
}
