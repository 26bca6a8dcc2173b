package capabilities

import (
	"context"
	"fmt"

	"github.com/devbroker/devbroker/engine"
)

// phase reports that driver dn, the i-th (from 0) of a request's n
// drivers, starts kind over files files; the function it returns reports
// the driver's end with its status. The listener is the request's (see
// engine.WithProgress): a driver's own progress, a language server's load
// say, comes between the two.
func phase(ctx context.Context, kind engine.Kind, dn string, i, n, files int) (end func(engine.Status)) {
	if !engine.WantsProgress(ctx) {
		return func(engine.Status) {}
	}
	p := engine.Progress{
		Driver: dn, ID: "devbroker/" + string(kind) + "/" + dn, Title: string(kind),
		Message:    fmt.Sprintf("driver %d of %d, %s", i+1, n, plural(files, "file")),
		Percentage: i * 100 / n,
	}
	engine.ReportProgress(ctx, p)
	return func(st engine.Status) {
		p.Message, p.Percentage, p.Done = fmt.Sprintf("driver %d of %d: %s", i+1, n, st), (i+1)*100/n, true
		engine.ReportProgress(ctx, p)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
