package okf

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxFrontmatterBytes caps the YAML frontmatter of a root. YAML decoding costs
// about 60 ms per MiB, so a root whose frontmatter does not close within this
// many bytes is treated as having no frontmatter (not a bundle), which keeps a
// 2 MiB root well under the parse budget. Real frontmatters are a few KiB.
const MaxFrontmatterBytes = 256 << 10

// maxVersionRunes caps okf_version; longer values are cut, never rejected.
const maxVersionRunes = 64

// frontmatter holds the frontmatter keys the card reads.
type frontmatter struct {
	version     string // okf_version, raw scalar text, trimmed
	title       string
	description string
	typ         string
}

// splitFrontmatter separates a leading frontmatter block from the body. The
// block opens with a "---" line as the very first line (a BOM has already been
// removed and CRLF normalised) and closes with the next "---" or "..." line.
// Trailing spaces and tabs on the fence lines are tolerated. Without a
// complete block, or with one longer than MaxFrontmatterBytes, it returns an
// error wrapping ErrNotBundle.
func splitFrontmatter(src []byte) (yamlText, body []byte, err error) {
	first, rest, found := bytes.Cut(src, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \t")) != "---" {
		return nil, nil, notBundle(ReasonNoFrontmatter, "no frontmatter block at the start of the file")
	}
	for off := 0; off < len(rest); {
		if off > MaxFrontmatterBytes {
			return nil, nil, notBundle(ReasonFrontmatterTooLarge, "frontmatter longer than %d bytes", MaxFrontmatterBytes)
		}
		line, next := rest[off:], len(rest)
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line, next = line[:end], off+end+1
		}
		switch string(bytes.TrimRight(line, " \t")) {
		case "---", "...":
			return rest[:off], rest[next:], nil
		}
		off = next
	}
	return nil, nil, notBundle(ReasonFrontmatterNotClosed, "frontmatter block is not closed")
}

// readFrontmatter decodes the YAML between the fences and reads the keys the
// card needs. It returns ErrNotBundle (wrapped with the reason) unless the
// frontmatter is a YAML mapping holding a non-empty scalar okf_version.
//
// Decisions: okf_version is read as raw scalar text (yaml.Node.Value), so an
// unquoted 0.10 stays "0.10"; a null (okf_version: or ~), empty, or
// non-scalar (mapping, sequence) okf_version means the root does not declare a
// version and is not a bundle. Aliases are followed. When a key repeats, the
// last occurrence wins (as in PyYAML, which most OKF tooling uses).
func readFrontmatter(yamlText []byte) (frontmatter, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(yamlText, &doc); err != nil {
		return frontmatter{}, notBundle(ReasonFrontmatterNotYAML, "frontmatter is not valid YAML: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return frontmatter{}, notBundle(ReasonFrontmatterNotMap, "frontmatter is not a YAML mapping")
	}
	m := doc.Content[0]
	var fm frontmatter
	hasVersion := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], deref(m.Content[i+1])
		if key.Kind != yaml.ScalarNode {
			continue
		}
		text, isText := scalarText(val)
		switch key.Value {
		case "okf_version":
			fm.version, hasVersion = text, isText && text != ""
		case "title":
			fm.title = text
		case "description":
			fm.description = text
		case "type":
			fm.typ = text
		}
	}
	if !hasVersion {
		return frontmatter{}, &NotBundleError{Reason: ReasonNoVersion}
	}
	fm.version = capRunes(firstLine(fm.version), maxVersionRunes)
	return fm, nil
}

// deref follows YAML aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < 8; hops++ {
		n = n.Alias
	}
	if n == nil {
		return &yaml.Node{}
	}
	return n
}

// scalarText returns a scalar's trimmed raw text; ok is false for null
// scalars and for mappings and sequences.
func scalarText(n *yaml.Node) (text string, ok bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return strings.TrimSpace(n.Value), true
}

// firstLine returns the first non-empty line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
