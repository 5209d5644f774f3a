package lessons

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.yaml.in/yaml/v3"
)

// KindQuiz is the node kind of a ```quiz block.
var KindQuiz = ast.NewNodeKind("Quiz")

// QuizBlock is a fenced ```quiz block, a "predict, then watch" question:
//
//	question: Eight senders at line rate into one port. How long does it take?
//	options:
//	  - text: the same as one flow
//	    why: each sender has its own link, but all eight share the receiver's
//	  - text: twice as long
//	    why: …
//	  - eight times as long   # the answer needs no why
//	answer: 2          # index into options, from 0
//	explain: The receiver's port is the bottleneck …
//
// It renders as a form the page's script checks (see render).
type QuizBlock struct {
	ast.BaseBlock
	Quiz
	// Number counts the quizzes of a document from 1; it names the form's radio group.
	Number int
	// Offset is the byte offset of the fence in the parsed source.
	Offset int
	// Info is what follows "quiz" on the fence line (an error when not empty).
	Info string
	// Err is the first problem with the block's YAML, located by QuizError.Line.
	Err *QuizError
	// Drill is set when the block is a ```drill (drill.go): a quiz whose
	// options are fixes, checked against the step's scenario.
	Drill *Drill
}

// Quiz is a quiz block's content.
type Quiz struct {
	Question string       `json:"question"`
	Options  []QuizOption `json:"options"`
	Answer   int          `json:"answer"`
	Explain  string       `json:"explain"`
}

// QuizOption is one answer offered; Why, required for every wrong option,
// says why that option is wrong (the page shows it when it is picked).
type QuizOption struct {
	Text string `json:"text"`
	Why  string `json:"why,omitempty" yaml:"why,omitempty"`
}

// QuizError is a problem with a quiz block; Line counts from the block's
// first content line (1).
type QuizError struct {
	Line int
	Msg  string
}

func (e *QuizError) Error() string { return "quiz block line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// Kind implements ast.Node.
func (n *QuizBlock) Kind() ast.NodeKind { return KindQuiz }

// Dump implements ast.Node.
func (n *QuizBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Question": n.Question}, nil)
}

// IsRaw implements ast.Node.
func (n *QuizBlock) IsRaw() bool { return true }

// MaxQuizOptions bounds a quiz's options.
const MaxQuizOptions = 8

const quizExample = "question: …, options: [{text: a, why: …}, b, {text: c, why: …}], answer: 1, explain: …"

// ParseQuiz reads a quiz block's YAML.
func ParseQuiz(data []byte) (Quiz, *QuizError) {
	return parseQuiz(data, quizKeys{})
}

// quizKeys lets a block built on the quiz (a drill) read keys of its own:
// top and option are asked first about every key, and say whether they took it.
type quizKeys struct {
	top    func(k, v *yaml.Node) (bool, *QuizError)
	option func(i int, k, v *yaml.Node) (bool, *QuizError)
	what   string // the block's keys, for messages; "" for a quiz's
	// check, if set, checks the quiz read (optionLines: each option's line).
	check func(q Quiz, optionLines []int) *QuizError
}

// quizMapping reads a quiz block's YAML as one mapping.
func quizMapping(data []byte) (*yaml.Node, *QuizError) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := 1, strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if num, what, ok := strings.Cut(rest, ": "); ok {
				if n, err := strconv.Atoi(num); err == nil && n > 0 {
					line, msg = n, what
				}
			}
		}
		return nil, &QuizError{line, "not valid YAML (" + msg + "); write " + quizExample}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &QuizError{1, "a quiz is keys " + quizExample}
	}
	return doc.Content[0], nil
}

// parseQuiz reads a quiz, letting extra take the keys of a block built on it.
func parseQuiz(data []byte, extra quizKeys) (Quiz, *QuizError) {
	var q Quiz
	m, merr := quizMapping(data)
	if merr != nil {
		return q, merr
	}
	seen := map[string]bool{}
	answerLine := 1
	var answer *yaml.Node
	var optionLines []int
	text := func(n *yaml.Node, key string) (string, *QuizError) {
		if n.Kind == yaml.MappingNode {
			return "", &QuizError{n.Line, key + ": text with \": \" in it reads as a key; put it in quotes (\"…\")"}
		}
		if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" || strings.TrimSpace(n.Value) == "" {
			return "", &QuizError{n.Line, key + ": must be text; write " + key + ": …"}
		}
		return strings.TrimSpace(n.Value), nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if seen[k.Value] {
			return q, &QuizError{k.Line, k.Value + ": duplicate key; remove one"}
		}
		seen[k.Value] = true
		var err *QuizError
		if extra.top != nil {
			if took, err := extra.top(k, v); took || err != nil {
				if err != nil {
					return q, err
				}
				continue
			}
		}
		switch k.Value {
		case "question":
			q.Question, err = text(v, "question")
		case "explain":
			q.Explain, err = text(v, "explain")
		case "answer":
			answer, answerLine = v, v.Line
		case "options":
			if v.Kind != yaml.SequenceNode {
				return q, &QuizError{v.Line, "options: must be a list, e.g. options: [the same, twice as long, eight times as long]"}
			}
			for _, o := range v.Content {
				opt, err := quizOption(o, text, len(q.Options), extra.option)
				if err != nil {
					return q, err
				}
				q.Options, optionLines = append(q.Options, opt), append(optionLines, o.Line)
			}
		default:
			what := extra.what
			if what == "" {
				what = "a quiz takes question, options, answer and explain"
			}
			err = &QuizError{k.Line, k.Value + ": unknown key; " + what}
		}
		if err != nil {
			return q, err
		}
	}
	for _, key := range []string{"question", "options", "answer", "explain"} {
		if !seen[key] {
			return q, &QuizError{1, "no " + key + "; a quiz has " + quizExample}
		}
	}
	if len(q.Options) < 2 || len(q.Options) > MaxQuizOptions {
		return q, &QuizError{1, fmt.Sprintf("options: %d given; a quiz offers 2 to %d", len(q.Options), MaxQuizOptions)}
	}
	n, err := strconv.Atoi(answer.Value)
	if answer.Kind != yaml.ScalarNode || err != nil || n < 0 || n >= len(q.Options) {
		return q, &QuizError{answerLine, fmt.Sprintf("answer: %q is not an option's index; use 0 to %d (options count from 0)", answer.Value, len(q.Options)-1)}
	}
	q.Answer = n
	for i, o := range q.Options {
		switch {
		case i == n && o.Why != "":
			return q, &QuizError{optionLines[i], fmt.Sprintf("option %d is the answer and has a why:; the explain: says why it is right, so remove its why:", i)}
		case i != n && o.Why == "":
			return q, &QuizError{optionLines[i], fmt.Sprintf("option %d (%q) is wrong but has no why:; write it as {text: \"…\", why: \"what is wrong with it\"} (the page shows the why when a learner picks it)", i, o.Text)}
		}
	}
	if extra.check != nil {
		return q, extra.check(q, optionLines)
	}
	return q, nil
}

// quizOption reads option index: plain text, or a map with text and why (and
// the keys extra takes).
func quizOption(n *yaml.Node, text func(*yaml.Node, string) (string, *QuizError), index int, extra func(int, *yaml.Node, *yaml.Node) (bool, *QuizError)) (QuizOption, *QuizError) {
	if n.Kind != yaml.MappingNode {
		s, err := text(n, "options")
		return QuizOption{Text: s}, err
	}
	var o QuizOption
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return o, &QuizError{k.Line, "options: " + k.Value + ": duplicate key; remove one"}
		}
		seen[k.Value] = true
		var err *QuizError
		if extra != nil {
			if took, err := extra(index, k, v); took || err != nil {
				if err != nil {
					return o, err
				}
				continue
			}
		}
		switch k.Value {
		case "text":
			o.Text, err = text(v, "text")
		case "why":
			o.Why, err = text(v, "why")
		default:
			err = &QuizError{k.Line, "options: " + strconv.Quote(k.Value) + " is not a key of an option; an option is text, or text: and why: (put text that contains \": \" in quotes)"}
		}
		if err != nil {
			return o, err
		}
	}
	if !seen["text"] {
		return o, &QuizError{n.Line, "options: an option with why: needs text: too; write {text: \"…\", why: \"…\"}"}
	}
	return o, nil
}

type quizRenderer struct{ labels labels }

// render writes the quiz as a form for the page's script (web/static/quiz.js):
//
//	<form class="lesson-quiz" data-quiz="1" data-answer="2" data-right="Right." data-wrong="Not quite." data-again="…" data-shown="…" data-mark="the answer" data-tried="not this one">
//	<fieldset><legend class="lesson-quiz-question">…</legend>
//	<label class="lesson-quiz-option"><input type="radio" name="quiz-1" value="0" data-why="…" required> …</label>
//	…</fieldset>
//	<button type="submit" class="lesson-quiz-check">Check</button> <button type="button" class="lesson-quiz-show">Show me</button>
//	<p class="lesson-quiz-hint" role="status" aria-live="polite"></p>
//	<div class="lesson-quiz-explain" role="status" aria-live="polite" hidden><p class="lesson-quiz-verdict"></p><p>…</p></div>
//	</form>
//
// Every wrong option's input carries its why (data-why); the answer's has none.
func (r quizRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*QuizBlock)
	if n.Err != nil {
		return ast.WalkSkipChildren, nil // the loader reports it
	}
	esc := func(s string) string { return string(util.EscapeHTML([]byte(s))) }
	l := r.labels
	class, beside := "lesson-quiz", ""
	if n.Drill != nil { // drill.go: after the answer the canvas shows the fixed run beside
		class, beside = "lesson-quiz lesson-drill", "<p class=\"lesson-drill-beside\">"+esc(l.DrillBeside)+"</p>"
	}
	fmt.Fprintf(w, "<form class=\"%s\" data-quiz=\"%d\" data-answer=\"%d\" data-right=\"%s\" data-wrong=\"%s\" data-again=\"%s\" data-shown=\"%s\" data-mark=\"%s\" data-tried=\"%s\">\n",
		class, n.Number, n.Answer, esc(l.Right), esc(l.Wrong), esc(l.Again), esc(l.Shown), esc(l.Mark), esc(l.Tried))
	fmt.Fprintf(w, "<fieldset><legend class=\"lesson-quiz-question\">%s</legend>\n", esc(n.Question))
	for i, o := range n.Options {
		why := ""
		if o.Why != "" {
			why = " data-why=\"" + esc(o.Why) + "\""
		}
		fmt.Fprintf(w, "<label class=\"lesson-quiz-option\"><input type=\"radio\" name=\"quiz-%d\" value=\"%d\"%s required> %s</label>\n", n.Number, i, why, esc(o.Text))
	}
	fmt.Fprintf(w, "</fieldset>\n<button type=\"submit\" class=\"lesson-quiz-check\">%s</button> <button type=\"button\" class=\"lesson-quiz-show\">%s</button>\n", esc(l.Check), esc(l.ShowMe))
	fmt.Fprintf(w, "<p class=\"lesson-quiz-hint\" role=\"status\" aria-live=\"polite\"></p>\n")
	fmt.Fprintf(w, "<div class=\"lesson-quiz-explain\" role=\"status\" aria-live=\"polite\" hidden><p class=\"lesson-quiz-verdict\"></p><p>%s</p>%s</div>\n</form>\n", esc(n.Explain), beside)
	return ast.WalkSkipChildren, nil
}
