package drivers

import (
	"context"

	"github.com/devbroker/devbroker/capabilities"
)

// Load is LoadWith with the default options: trust from the user's list,
// every driver probed.
func Load(ctx context.Context, root string) (*capabilities.Set, *capabilities.Report, error) {
	return LoadWith(ctx, root, Options{})
}
