package testrun

// This file holds a test run's time budget: the driver's configured
// timeout (the timeout key of its [drivers.NAME] table), which bounds the
// whole run, and the answer of a run that it or a cancellation ended.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// errBudget is the cause of a run's end when its budget ran out.
var errBudget = errors.New("the test driver's timeout passed")

// Timeout is a driver's budget from its configuration: its timeout, or
// the default when it sets none.
func Timeout(cfg *configs.Driver) time.Duration {
	if cfg != nil && cfg.Timeout.Duration > 0 {
		return cfg.Timeout.Duration
	}
	return configs.DefaultTimeout
}

// Budget bounds ctx by a run's budget, t: when it runs out, the runner's
// process group is killed (see [Run]) and [Ended] says so.
func Budget(ctx context.Context, t time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, t, errBudget)
}

// Ended is the status and message of driver dn's run that ctx ended
// before it finished: its budget t ran out, the request's deadline
// passed, or the request was canceled. running, if not "", names what was
// still running.
func Ended(ctx context.Context, dn string, t time.Duration, running string) (engine.Status, string) {
	still := ""
	if running != "" {
		still = "; still running: " + running
	}
	switch {
	case errors.Is(context.Cause(ctx), errBudget):
		return engine.StatusTimeout, fmt.Sprintf("the tests timed out: they ran past %s's time budget of %s and were killed with every process they started%s; %s", dn, capabilities.ShortDuration(t), still, capabilities.RaiseTimeout(dn, t))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return engine.StatusTimeout, fmt.Sprintf("the tests timed out: they ran past the request's deadline and were killed with every process they started%s", still)
	default:
		return engine.StatusTimeout, "the tests were canceled before they finished and were killed with every process they started" + still
	}
}
