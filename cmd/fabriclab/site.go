package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"fabriclab/web"
)

func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory to write the static site to: new, empty, or an earlier build (only its files are replaced); relative to the current directory (default: dist/site in the source tree)")
	fast := fs.Bool("fast", false, "compress quickly (brotli 9) instead of smallest (brotli 11, about a minute more)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; use --out DIR", fs.Arg(0))
	}
	root, dir, err := sourceAndSite(*out)
	if err != nil {
		return err
	}
	return web.BuildSite(root, dir, stdout, !*fast)
}

func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "address to listen on")
	out := fs.String("out", "", "where the built site lives, relative to the current directory (default: dist/site in the source tree)")
	rebuild := fs.Bool("rebuild", false, "build even if the site is up to date")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	root, dir, err := sourceAndSite(*out)
	if err != nil {
		return err
	}
	if *rebuild || stale(root, dir) {
		if err := web.BuildSite(root, dir, stdout, false); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "site up to date in %s\n", dir)
	}
	site, err := web.OpenDir(dir)
	if err != nil {
		return err
	}
	defer site.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w (try --addr localhost:8081)", *addr, err)
	}
	warnIfPublic(stderr, *addr, ln.Addr())
	fmt.Fprintf(stdout, "serving fabriclab at http://%s/  (Ctrl-C stops)\n", ln.Addr())
	return site.Server(web.DefaultLimits).Serve(web.Listener(ln, web.DefaultLimits))
}

// siteDir is where build and serve put the site: --out, relative to the
// current directory as every path on the command line, or by default
// dist/site in the source tree, wherever in it the command runs.
func siteDir(root, out string) (string, error) {
	if out == "" {
		return filepath.Join(root, "dist", "site"), nil
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("--out %s: %w (give an absolute path)", out, err)
	}
	return dir, nil
}

// warnIfPublic warns when the server listens on every network interface
// (":8080", "0.0.0.0:8080", "[::]:8080"), where other machines can reach it.
func warnIfPublic(stderr io.Writer, flag string, addr net.Addr) {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		fmt.Fprintf(stderr, "warning: --addr %s listens on every network interface: anyone who can reach this machine can load the site; "+
			"use --addr localhost:%d to keep it on this machine\n", flag, tcp.Port)
	}
}

// stale reports whether the site in dir is missing, was not written by
// fabriclab or not to the end (a build interrupted, or running), or is older
// than any source file (Go, lessons, web assets) under root.
func stale(root, dir string) bool {
	if !web.Complete(dir) {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, web.Marker)) // written last by every build
	if err != nil {
		return true
	}
	built := st.ModTime()
	newer := false
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || newer {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "dist" || name == "testdata" || p == dir) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".html", ".css", ".js", ".yaml", ".mod", ".sum":
			if info, err := d.Info(); err == nil && info.ModTime().After(built) {
				newer = true
			}
		}
		return nil
	})
	return newer
}

// sourceAndSite is the source tree the command runs in and the site
// directory --out names (siteDir).
func sourceAndSite(out string) (root, dir string, err error) {
	if root, err = moduleRoot(); err != nil {
		return "", "", err
	}
	dir, err = siteDir(root, out)
	return root, dir, err
}
