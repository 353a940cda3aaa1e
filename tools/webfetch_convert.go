package tools

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// pageText turns a fetched body into the text WebFetch works on: HTML into
// Markdown (htmlMarkdown), other text as it is; a binary body (an image, a
// PDF, an archive) is refused with a text saying what it was.
func pageText(f fetched) (text string, converted bool, err error) {
	mt := mediaType(f.ContentType, f.Body)
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		md, err := htmlMarkdown(f.Body, f.URL)
		return md, true, err
	case textual(mt, f.Body):
		return strings.ToValidUTF8(string(f.Body), "\uFFFD"), false, nil
	}
	return "", false, fmt.Errorf("%s is %s (%d bytes), not text: WebFetch reads HTML and text pages only", f.URL, mt, len(f.Body))
}

// mediaType is the body's media type: the Content-Type header's, else sniffed.
func mediaType(header string, body []byte) string {
	if mt, _, err := mime.ParseMediaType(header); err == nil && mt != "" && mt != "application/octet-stream" {
		return strings.ToLower(mt)
	}
	mt, _, _ := mime.ParseMediaType(http.DetectContentType(body))
	return mt
}

// textual reports whether a body of media type mt is text to show as it is.
func textual(mt string, body []byte) bool {
	switch {
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"),
		mt == "application/json", mt == "application/xml", mt == "application/javascript",
		mt == "application/x-javascript", mt == "application/ecmascript", mt == "application/toml",
		mt == "application/yaml", mt == "application/x-yaml", mt == "application/x-sh",
		mt == "application/graphql", mt == "application/x-ndjson":
		return true
	case mt == "application/octet-stream" || mt == "":
		return utf8.Valid(body) && !bytes.ContainsRune(body, 0)
	}
	return false
}

// htmlMarkdown converts an HTML page to Markdown: readability's extraction of
// the main content first (Mozilla's Readability algorithm, codeberg.org/readeck/go-readability),
// the whole body when it finds none; then JohannesKaufmann/html-to-markdown,
// links made absolute against pageURL. The page's title heads the text.
func htmlMarkdown(body []byte, pageURL string) (string, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("parsing the HTML: %w", err)
	}
	base, _ := url.Parse(pageURL)
	node, title := doc, ""
	p := readability.NewParser()
	if art, err := p.ParseDocument(doc, base); err == nil && art.Node != nil {
		if art.Node.FirstChild != nil {
			node = art.Node
		}
		title = strings.TrimSpace(art.Title())
	} // ParseDocument works on a copy: doc is whole for the fallback
	var opts []converter.ConvertOptionFunc
	if base != nil {
		opts = append(opts, converter.WithDomain(base.Scheme+"://"+base.Host))
	}
	md, err := htmltomarkdown.ConvertNode(node, opts...)
	if err != nil {
		return "", fmt.Errorf("converting the HTML to Markdown: %w", err)
	}
	text := strings.TrimSpace(string(md))
	if title != "" && !strings.HasPrefix(text, "# ") {
		text = "# " + title + "\n\n" + text
	}
	return text, nil
}
