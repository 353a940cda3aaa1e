package web

import "embed"

// Static is the web panel (static/: index.html, its CSS and its ES modules),
// embedded in the binary so `pincer serve` needs no files at run time and no
// build step: served at / (index.html) and /static/.
//
//go:embed static
var Static embed.FS
