package protocol

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documented is a row of README's commands or events table: the messages it
// names (first column) and their fields (second column), sorted.
type documented struct {
	names  []string
	fields []string
	line   string
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// readmeTable reads the table of "Embedding the canvas" whose header begins
// with "| head |".
func readmeTable(t *testing.T, head string) []documented {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(data), "\n### Embedding the canvas\n")
	require.True(t, ok, "README.md has a section Embedding the canvas")
	section, _, _ = strings.Cut(section, "\n### ")
	_, table, ok := strings.Cut(section, "\n| "+head+" |")
	require.True(t, ok, "Embedding the canvas has a table of %ss", head)
	var rows []documented
	for _, line := range strings.Split(table, "\n")[2:] { // the header's rest, then |---|
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, " | ")
		require.GreaterOrEqual(t, len(cells), 3, line)
		row := documented{names: spans(cells[0]), fields: spans(cells[1]), line: line}
		slices.Sort(row.fields)
		rows = append(rows, row)
	}
	require.NotEmpty(t, rows, "the table of %ss has rows", head)
	return rows
}

func spans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestREADME: every message type (the worker's too) is a row of README's
// tables with its fields, and every row is a message type.
func TestREADME(t *testing.T) {
	type message struct{ name, typ string }
	var commands, events, workerCommands, workerEvents []message
	for _, c := range Commands {
		commands = append(commands, message{c.Command(), typeName(c)})
	}
	for _, e := range Events {
		events = append(events, message{e.Event(), typeName(e)})
	}
	for _, c := range WorkerCommands {
		workerCommands = append(workerCommands, message{c.WorkerCommand(), typeName(c)})
	}
	for _, e := range WorkerEvents {
		workerEvents = append(workerEvents, message{e.WorkerEvent(), typeName(e)})
	}
	for _, table := range []struct {
		head     string
		messages []message
		types    []any
	}{
		{"command", commands, anys(Commands)},
		{"event", events, anys(Events)},
		{"worker command", workerCommands, anys(WorkerCommands)},
		{"worker event", workerEvents, anys(WorkerEvents)},
	} {
		rows := readmeTable(t, table.head)
		has := map[string]bool{} // "name fields" of every type
		for i, m := range table.messages {
			want := fields(reflect.TypeOf(table.types[i]))
			slices.Sort(want)
			has[m.name+" "+strings.Join(want, ",")] = true
			found := false
			for _, row := range rows {
				found = found || slices.Contains(row.names, m.name) && slices.Equal(row.fields, want)
			}
			assert.True(t, found, "README.md's %ss table has no row for %s (%s) with the fields %v: add one, or fix its fields",
				table.head, m.name, m.typ, want)
		}
		for _, row := range rows {
			for _, name := range row.names {
				assert.True(t, has[name+" "+strings.Join(row.fields, ",")], "README.md's %ss table documents %s with fields %v, which no type has: %s",
					table.head, name, row.fields, row.line)
			}
		}
	}
}

func anys[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}
