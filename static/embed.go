// Package static holds the playground's browser assets — CSS, the small
// scripts (the board, live pages, steps, the analysis panel, the editor,
// premoves), htmx, the piece art and the sounds — embedded in the binary.
package static

import "embed"

// FS holds every asset, at the paths the pages link under /static/.
//
//go:embed style.css board.js live.js lobby.js steps.js analysis.js editor.js premove.js storm.js notify.js htmx.min.js htmx.LICENSE pieces/*.svg pieces/LICENSE.cm-chessboard pieces/dejavu/*.svg pieces/dejavu/LICENSE sounds/*.wav
var FS embed.FS
