package editor

// This file defines the work-done progress of a request: an editor that
// sends workDoneToken with devbroker/plan (LSP's WorkDoneProgressParams)
// gets $/progress for it: a begin, a report for each event the plan's
// drivers report (a driver starting its phase, a language server loading
// the workspace), and an end, all before the answer.

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/devbroker/devbroker/engine"
)

// workDoneValue is a $/progress value: WorkDoneProgressBegin, Report or
// End.
type workDoneValue struct {
	Kind    string `json:"kind"`
	Title   string `json:"title,omitempty"`
	Message string `json:"message,omitempty"`
}

type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value workDoneValue   `json:"value"`
}

// workDoneToken checks a request's workDoneToken: nil when there is none
// (absent or null); an error when it is neither an integer nor a string.
func workDoneToken(method string, tok json.RawMessage) (json.RawMessage, error) {
	if len(tok) == 0 || string(tok) == "null" {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(tok, &v); err == nil {
		switch n := v.(type) {
		case string:
			return tok, nil
		case float64:
			if n == float64(int64(n)) {
				return tok, nil
			}
		}
	}
	return nil, badParams(method, fmt.Errorf("workDoneToken must be an integer or a string, got %s", tok))
}

// workDone begins the progress of token (nil: none) titled title and
// returns ctx with the drivers' events sent as its reports, and the
// function that ends it.
func (c *conn) workDone(ctx context.Context, token json.RawMessage, title string) (context.Context, func()) {
	if token == nil {
		return ctx, func() {}
	}
	var mu sync.Mutex
	ended := false
	send := func(v workDoneValue) {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		_ = c.rpc.Notify(context.WithoutCancel(ctx), "$/progress", progressParams{Token: token, Value: v})
		ended = v.Kind == "end"
	}
	send(workDoneValue{Kind: "begin", Title: title})
	ctx = engine.WithProgress(ctx, func(p engine.Progress) {
		send(workDoneValue{Kind: "report", Message: p.String()})
	})
	return ctx, func() { send(workDoneValue{Kind: "end"}) }
}
