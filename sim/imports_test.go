//go:build !js

package sim_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importRules are the house's layers, bottom up: a package under `under`
// (other than those in except) imports nothing under forbidden, directly or
// through another package.
var importRules = []struct {
	under     string
	except    []string
	forbidden []string
	why       string
}{
	{
		under:     "fabriclab/sim",
		forbidden: []string{"fabriclab/render", "fabriclab/lessons", "fabriclab/web", "fabriclab/cmd", "fabriclab/assets", "github.com/hajimehoshi/ebiten"},
		why:       "the simulation knows nothing of how it is shown, and runs the same natively and in WebAssembly",
	},
	{
		under:     "fabriclab/sim/scenario",
		forbidden: []string{"fabriclab/sim/coll", "fabriclab/sim/train"},
		why:       "the YAML package sits below the algorithms: the checks that need one are sim/plan's",
	},
	{
		under:     "fabriclab/protocol",
		forbidden: []string{"fabriclab", "github.com/hajimehoshi/ebiten"},
		why:       "the page↔canvas messages are plain types: the page, the canvas, export and tests read them without the simulation",
	},
	{
		under:     "fabriclab/sim/golden",
		forbidden: []string{"fabriclab"},
		why:       "every package's tests use the golden helper, so it imports nothing of the module",
	},
	{
		under:     "fabriclab/i18n",
		forbidden: []string{"fabriclab"},
		why:       "the one catalogue of words sits below everything that shows them (render, lessons, web, playback, cmd)",
	},
	{
		under:     "fabriclab/assets",
		forbidden: []string{"fabriclab/sim", "fabriclab/render", "fabriclab/lessons", "fabriclab/web", "fabriclab/cmd"},
		why:       "fonts and palette sit below everything that draws (a tool that reads the catalogue is a command under cmd/)",
	},
	{
		under:     "fabriclab/render",
		forbidden: []string{"fabriclab/lessons", "fabriclab/web", "fabriclab/cmd"},
		why:       "the renderer turns a snapshot into a display list; lessons and pages use it, not the other way round",
	},
	{
		under:     "fabriclab/playback",
		forbidden: []string{"fabriclab/render", "fabriclab/lessons", "fabriclab/web", "fabriclab/cmd", "github.com/hajimehoshi/ebiten"},
		why:       "playback runs and records a scenario for the canvas, export and tests alike, without drawing",
	},
	{
		under: "fabriclab/playback/framewire",
		forbidden: []string{"fabriclab/playback", "fabriclab/protocol", "fabriclab/i18n", "fabriclab/render", "fabriclab/sim/scenario",
			"fabriclab/sim/network", "fabriclab/sim/metrics", "fabriclab/sim/plan", "github.com/hajimehoshi/ebiten"},
		why: "the frame codec is shared by the worker that computes and the canvas that plays: snapshots and units only",
	},
	{
		under:     "fabriclab/render",
		except:    []string{"fabriclab/render/ebitenrender"},
		forbidden: []string{"github.com/hajimehoshi/ebiten"},
		why:       "the display list is pure Go, testable without a GPU; only render/ebitenrender draws it with Ebitengine",
	},
}

// listedPackage is what the import rules read of go list -json.
type listedPackage struct {
	ImportPath string
	Imports    []string
	DepOnly    bool
}

// Each package under sim, assets, render, playback, i18n and protocol keeps to importRules; a failure
// names the import chain that breaks the rule.
func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	imports, roots := goListDeps(t, "fabriclab/sim/...", "fabriclab/assets/...", "fabriclab/render/...", "fabriclab/playback/...", "fabriclab/i18n/...", "fabriclab/protocol/...")
	require.Contains(t, roots, "fabriclab/sim/packet")
	require.NotEmpty(t, importChain(imports, "fabriclab/render/ebitenrender", []string{"github.com/hajimehoshi/ebiten"}),
		"the chain search finds render/ebitenrender's use of Ebitengine")

	for _, rule := range importRules {
		checked := 0
		reported := map[string]bool{} // the chains' last imports, each told once
		for _, pkg := range roots {
			if !under(pkg, rule.under) || slices.Contains(rule.except, pkg) {
				continue
			}
			checked++
			chain := importChain(imports, pkg, rule.forbidden)
			if len(chain) == 0 || reported[strings.Join(chain[len(chain)-2:], " ")] {
				continue
			}
			reported[strings.Join(chain[len(chain)-2:], " ")] = true
			assert.Empty(t, chain, "%s breaks the rule of %s/...: no import of %s, since %s",
				strings.Join(chain, " → "), rule.under, strings.Join(rule.forbidden, ", "), rule.why)
		}
		assert.NotZero(t, checked, "no package under %s: is the rule out of date?", rule.under)
	}
}

// goListDeps runs go list -deps on the patterns: every package's imports,
// and the packages the patterns match.
func goListDeps(t *testing.T, patterns ...string) (imports map[string][]string, roots []string) {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Imports,DepOnly"}, patterns...)...).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("go list: %v\n%s", err, exit.Stderr)
	}
	require.NoError(t, err)
	imports = map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		imports[p.ImportPath] = p.Imports
		if !p.DepOnly {
			roots = append(roots, p.ImportPath)
		}
	}
	return imports, roots
}

// importChain is the shortest chain of imports from pkg to a package under
// one of forbidden (pkg first), or nil if there is none.
func importChain(imports map[string][]string, pkg string, forbidden []string) []string {
	from := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range imports[p] {
			if _, seen := from[q]; seen {
				continue
			}
			from[q] = p
			for _, f := range forbidden {
				if under(q, f) {
					chain := []string{q}
					for c := p; c != ""; c = from[c] {
						chain = append([]string{c}, chain...)
					}
					return chain
				}
			}
			queue = append(queue, q)
		}
	}
	return nil
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool {
	return pkg == dir || strings.HasPrefix(pkg, dir+"/")
}
