package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The house rules, checked over the source (CONTRIBUTING.md says why).

// module is this module's path.
const module = "github.com/banchess/banchess"

// maxMethods bounds the methods declared on one type: past it, a type
// holds more than one job.
const maxMethods = 40

// sourceFile is a parsed non-test, non-generated Go file of the module.
type sourceFile struct {
	path string // slash-separated, from the module's root
	pkg  string // its package's import path
	file *ast.File
}

// sources parses every non-test, non-generated Go file of the module.
func sources(t *testing.T) []sourceFile {
	t.Helper()
	var out []sourceFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		pkg := module
		if dir != "." {
			pkg += "/" + dir
		}
		out = append(out, sourceFile{path: filepath.ToSlash(path), pkg: pkg, file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found %d source files: not run from the module's root?", len(out))
	}
	return out
}

// TestMethodsPerType: no type has more than maxMethods methods.
func TestMethodsPerType(t *testing.T) {
	count := map[string]int{}
	for _, f := range sources(t) {
		for _, d := range f.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				count[f.pkg+"."+id.Name]++
			}
		}
	}
	if len(count) < 50 {
		t.Fatalf("counted the methods of %d types only", len(count))
	}
	for typ, n := range count {
		if n > maxMethods {
			t.Errorf("%s has %d methods, more than %d: give its jobs types of their own", strings.TrimPrefix(typ, module+"/"), n, maxMethods)
		}
	}
}

// TestDependenciesFlowOneWay: handlers → services → rules and store; views
// only render; the front ends' packages stand side by side over their kit.
func TestDependenciesFlowOneWay(t *testing.T) {
	// forbidden maps a package (or, ending in "/", every package under a
	// path) to the packages it must not import, likewise.
	forbidden := map[string][]string{
		"rules":            {""}, // nothing of the module
		"tournament/swiss": {""},
		"i18n":             {""},
		"ruletext":         {"chat", "games", "players", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views", "terminal"},
		"errs":             {"chat", "games", "players", "lobby", "analysis", "computer", "training", "store", "handlers/", "views"},
		"games":            {"chat", "players/", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"players":          {"chat", "games", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"lobby":            {"chat", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"analysis":         {"chat", "lobby", "computer", "training", "store", "handlers", "handlers/", "views"},
		"computer":         {"chat", "lobby", "analysis", "training", "store", "handlers", "handlers/", "views"},
		"training":         {"chat", "lobby", "analysis", "computer", "store", "handlers", "handlers/", "views"},
		"chat":             {"lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"relations":        {"chat", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"moderation":       {"lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"tournament":       {"chat", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"botclient":        {"chat", "games", "players", "lobby", "analysis", "computer", "training", "challenges", "store", "handlers", "handlers/", "views"},
		"challenges":       {"chat", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"notify":           {"chat", "lobby", "analysis", "computer", "training", "store", "handlers", "handlers/", "views"},
		"store":            {"handlers", "handlers/", "views", "computer"},
		"views":            {"handlers", "handlers/", "store"},
		"handlers/kit":     {"handlers", "handlers/pages", "handlers/api", "handlers/lichess", "handlers/stream", "store", "views"},
		"handlers/stream":  {"handlers", "handlers/pages", "handlers/api", "handlers/lichess", "store", "views"},
		"handlers/pages":   {"handlers", "handlers/api", "handlers/lichess", "store"},
		"handlers/api":     {"handlers", "handlers/pages", "handlers/lichess", "store", "views"},
		"handlers/lichess": {"handlers", "handlers/pages", "handlers/api", "store", "views"},
		"handlers":         {"store"},
	}
	sorted := func(m map[string]bool) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	imports := map[string]map[string]bool{} // package → the module's packages it imports
	for _, f := range sources(t) {
		pkg := strings.TrimPrefix(strings.TrimPrefix(f.pkg, module), "/")
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, imp := range f.file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == module || strings.HasPrefix(path, module+"/") {
				imports[pkg][strings.TrimPrefix(strings.TrimPrefix(path, module), "/")] = true
			}
		}
	}
	matches := func(rule, pkg string) bool {
		switch {
		case rule == "":
			return true
		case strings.HasSuffix(rule, "/"):
			return strings.HasPrefix(pkg, rule)
		}
		return pkg == rule
	}
	for pkg, rules := range forbidden {
		if imports[pkg] == nil {
			t.Errorf("no package %s: the rule for it is stale", pkg)
			continue
		}
		for _, imp := range sorted(imports[pkg]) {
			for _, rule := range rules {
				if matches(rule, imp) && !(rule == "" && strings.HasPrefix(imp, "internal/")) {
					t.Errorf("%s imports %s: data flows one way (CONTRIBUTING.md)", pkg, imp)
				}
			}
		}
	}
	// Only main wires the front ends; the others reach the services.
	for _, pkg := range sorted(map[string]bool{"handlers": true, "terminal": true, "uci": true}) {
		for importer, imps := range imports {
			if imps[pkg] && importer != "" && !strings.HasPrefix(importer, "internal/") {
				t.Errorf("%s imports the front end %s: only main wires front ends", importer, pkg)
			}
		}
	}
}

// variantNamers are the files besides rules/ and main.go that may name a
// variant: those whose subject is one variant.
var variantNamers = []string{
	"puzzles/puzzle.go",             // the puzzles are Ban Chess puzzles (puzzles.Variant)
	"lessons/lesson.go",             // the lessons teach Ban Chess
	"engine/match/match.go",         // banchess match plays Ban Chess matches
	"views/rules.go",                // the rules pages' diagrams
	"internal/testsite/testsite.go", // wires the lobby as main does
}

// TestVariantsNamedInRules: outside rules/ and main's wiring no code names
// a variant: it asks a variant what it needs (its ID, board, bans…) or is
// given the variants to serve.
func TestVariantsNamedInRules(t *testing.T) {
	names := []string{"BanChess", "Classic", "ENChess"}
	for _, f := range sources(t) {
		if strings.HasPrefix(f.path, "rules/") || f.path == "main.go" || slices.Contains(variantNamers, f.path) {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "rules" && slices.Contains(names, sel.Sel.Name) {
				t.Errorf("%s names rules.%s: ask the variant, or be given it", f.path, sel.Sel.Name)
			}
			return true
		})
	}
}
