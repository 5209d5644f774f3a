package lessons

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use, not at init: every start of the CLI
// (fabriclab run included) links this package.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
