package upstream

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// The listed differences live in tests/conformance/KNOWN_DIFFERENCES.md, in the table between
// these two markers: | source | definition | case | field | class | reason |. Every cell but
// class and reason is a pattern where * matches any run of characters.
const (
	knownBegin = "<!-- upstream-differential:begin -->"
	knownEnd   = "<!-- upstream-differential:end -->"
)

// knownDifference is one row of the table.
type knownDifference struct {
	Line                            int
	Source, Definition, Case, Field string
	Class, Reason                   string
	hits                            int
}

func (k *knownDifference) matches(d difference) bool {
	return globMatch(k.Source, d.Source) && globMatch(k.Definition, d.Definition) &&
		globMatch(k.Case, d.Case) && globMatch(k.Field, d.Field)
}

// knownClasses are the classes a row may have.
var knownClasses = map[string]bool{
	"upstream-later":   true, // wmap follows a rule upstream added after the pinned library
	"wmap-extension":   true, // wmap reads a field or case the pinned library does not
	"library-quirk":    true, // the pinned library's answer is an accident of its Go types
	"harness":          true, // the two sides are asked different questions
	"wmap bug, to fix": true,
}

func loadKnown(path string) ([]*knownDifference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []*knownDifference
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == knownBegin:
			in = true
			continue
		case text == knownEnd:
			in = false
			continue
		}
		if !in || !strings.HasPrefix(text, "|") {
			continue
		}
		cells := splitRow(text)
		if len(cells) != 6 {
			return nil, fmt.Errorf("%s:%d: want 6 cells, got %d", path, line, len(cells))
		}
		if cells[0] == "source" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		if !knownClasses[cells[4]] {
			return nil, fmt.Errorf("%s:%d: unknown class %q", path, line, cells[4])
		}
		rows = append(rows, &knownDifference{Line: line, Source: cells[0], Definition: cells[1],
			Case: cells[2], Field: cells[3], Class: cells[4], Reason: cells[5]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows between %q and %q", path, knownBegin, knownEnd)
	}
	return rows, nil
}

// splitRow splits a Markdown table row; cells may hold code spans and \| escapes.
func splitRow(row string) []string {
	row = strings.TrimPrefix(strings.TrimSuffix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		c := row[i]
		if c == '\\' && i+1 < len(row) && row[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if c == '|' {
			cells = append(cells, cleanCell(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(cells, cleanCell(cur.String()))
}

func cleanCell(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") {
		s = s[1 : len(s)-1]
	}
	return s
}

// globMatch matches s against a pattern where * is any run of characters.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i := 1; i < len(parts)-1; i++ {
		idx := strings.Index(s, parts[i])
		if idx < 0 {
			return false
		}
		s = s[idx+len(parts[i]):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
