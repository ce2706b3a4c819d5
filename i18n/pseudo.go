package i18n

import (
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// accents is the pseudo-locale's letter for each ASCII letter: text it
// shows in plain ASCII letters came from no catalog.
var accents = strings.NewReplacer(
	"a", "à", "b", "ƀ", "c", "ç", "d", "ð", "e", "é", "f", "ƒ", "g", "ĝ", "h", "ĥ", "i", "î",
	"j", "ĵ", "k", "ķ", "l", "ļ", "m", "ɱ", "n", "ñ", "o", "ö", "p", "þ", "q", "ǫ", "r", "ŕ",
	"s", "š", "t", "ţ", "u", "û", "v", "ṽ", "w", "ŵ", "x", "ẋ", "y", "ý", "z", "ž",
	"A", "Å", "B", "Ɓ", "C", "Ç", "D", "Ð", "E", "É", "F", "Ƒ", "G", "Ĝ", "H", "Ĥ", "I", "Î",
	"J", "Ĵ", "K", "Ķ", "L", "Ļ", "M", "Ṁ", "N", "Ñ", "O", "Ö", "P", "Þ", "Q", "Ǫ", "R", "Ŕ",
	"S", "Š", "T", "Ţ", "U", "Û", "V", "Ṽ", "W", "Ŵ", "X", "Ẋ", "Y", "Ý", "Z", "Ž",
)

// pseudoOf is the pseudo-locale made from src: each message accented,
// lengthened by a third (as translations run longer) and bracketed, its
// placeholders kept.
func pseudoOf(src *Language) *Language {
	tag := language.MustParse(Pseudo)
	l := &Language{Code: Pseudo, Name: pseudoText(src.Name), tag: tag, messages: make(map[string]*entry, len(src.messages)), numbers: message.NewPrinter(tag)}
	for id, m := range src.messages {
		p := &entry{description: m.description, forms: map[plural.Form]text{}}
		for form, t := range m.forms {
			out := make(text, len(t))
			copy(out, t)
			if id != "language.name" && id != "language.direction" {
				for i := 0; i < len(out); i += 2 {
					out[i] = accents.Replace(out[i])
				}
				out[0] = "[!! " + out[0]
				out[len(out)-1] += strings.Repeat("~", (len(strings.Join(t, ""))+2)/3) + " !!]"
			}
			p.forms[form] = out
		}
		l.messages[id] = p
	}
	return l
}

func pseudoText(s string) string { return "[!! " + accents.Replace(s) + " !!]" }
