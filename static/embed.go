// Package static holds the playground's browser assets — CSS, the small
// board script, htmx, the piece art and the sounds — embedded in the binary.
package static

import "embed"

// FS holds every asset, at the paths the pages link under /static/.
//
//go:embed style.css board.js live.js steps.js editor.js htmx.min.js htmx.LICENSE pieces sounds/*.wav
var FS embed.FS
