// Package protocol is what the page and the canvas say to each other through
// postMessage and embed.js: every command (page → canvas) and every event
// (canvas → page) is a Go type here, written and read only by this package's
// EncodeEvent, EncodeCommand, DecodeCommand and DecodeEvent (encoding/json).
//
// On the wire a message is a JSON object whose "fabriclab" field is its name
// and whose other fields are the type's: {"fabriclab": "seek", "t_us": 12.5}.
// DecodeCommand is the only reader of what a page sends, which may be
// anything: it refuses a command that is too long, not JSON, unknown, or whose
// fields have the wrong JSON type or are out of range, with a message that
// says what to send instead (checks.go). Fields a command does not take are
// ignored. Some names have two shapes (one run, or a comparison; an error,
// or an editor command's error): two types, one name.
//
// To add a message:
//
//  1. Declare its type in commands.go or events.go, with its JSON field tags
//     and its Command or Event method returning its name; a command whose
//     arguments have limits gets a check method in checks.go.
//  2. Add its zero value to Commands or Events (codec.go) and an example,
//     every field set, to commandExamples or eventExamples (protocol_test.go);
//     run go test ./protocol -update and read its new golden file under
//     testdata/.
//  3. Document it, with its fields, in the tables of README.md's "Embedding
//     the canvas" (TestREADME checks them against the types), and handle it:
//     a command in cmd/viz (game.go's handle) or embed.js, an event in
//     embed.js and the pages that listen.
//
// The package imports nothing of the module: the limits the checks use
// (MaxSeekUs, MaxSpeedUs) are numbers that playback's tests hold equal to
// the scenario's and the player's.
package protocol
