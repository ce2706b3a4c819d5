// Package views renders the playground's pages and htmx fragments with templ.
// The functions here turn a rules.Game into plain view models; the .templ
// files only lay them out.
package views
