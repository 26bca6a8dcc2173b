package lsp

// This file defines [Server.Dependents]: the files that import some
// files, as tsserver knows them, for a check of TypeScript to report the
// files a change breaks (gopls and pyright report those themselves).
//
// tsserver's fileReferences request (TypeScript 4.2 and later) answers,
// for one open file, the places in its projects that import it.
// Dependents follows it transitively, nearest files first, up to
// MaxDependents files: an importer of an importer breaks too when a type
// inferred from the changed file flows through it. tsserver answers
// fileReferences only for an open file ("No Project." for a closed one),
// so each importer found is opened, with the content the caller gives,
// before its own importers are asked for; the caller keeps those
// documents in its next request, whose diagnostics then cover them.
//
// tsserver knows only the files of its projects: with a tsconfig.json or
// jsconfig.json, every file the configuration includes; without one, an
// inferred project of the open files and what they import, where no file
// on disk imports the changed one. Then, when fileReferences fails (an
// older TypeScript has none) and when the bound is reached, Dependents
// names the files whose importers may be missing, and why, instead of
// claiming the list is complete.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

// MaxDependents bounds the files [Server.Dependents] opens.
const MaxDependents = 100

// Dependents is what tsserver knows of the files that import some files.
type Dependents struct {
	// Docs are the importers, transitively, nearest first, as opened
	// (the starting files and the documents given left out).
	Docs []Document
	// Gaps name the files whose importers may be missing from Docs.
	Gaps []Gap
}

// Gap is a file whose importers may be missing, and why.
type Gap struct {
	Path string // absolute
	Why  string
	// Inferred is set when the file is in none of tsserver's configured
	// projects: only the open files and what they import are known. A
	// file that is not on disk is always in an inferred project, but
	// then no file on disk can import it.
	Inferred bool
}

// tsFileReferences is tsserver's answer to fileReferences.
type tsFileReferences struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Body    struct {
		Refs []struct {
			File string `json:"file"`
		} `json:"refs"`
	} `json:"body"`
}

// files are the absolute paths of the files that hold the references,
// sorted, self left out.
func (r *tsFileReferences) files(self string) []string {
	var out []string
	for _, ref := range r.Body.Refs {
		p := ref.File
		if strings.HasPrefix(p, "file://") {
			p = Path(p)
		}
		if p != "" && p != self {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tsProjectInfo is tsserver's answer to projectInfo.
type tsProjectInfo struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Body    struct {
		ConfigFileName string `json:"configFileName"`
	} `json:"body"`
}

// inferredProject is how tsserver names the projects of files no
// tsconfig.json or jsconfig.json includes.
const inferredProject = "/dev/null/inferredProject"

// Dependents brings the server to docs and asks tsserver for the files
// that import the files from (absolute paths of documents), transitively.
// open gives the document to open for an importer found (its content as
// the caller sees it), or false to leave it out (it is not followed); an
// importer among docs is open already, and is followed too. A
// server that is not typescript-language-server answers nil: the others
// report dependents with their diagnostics.
func (s *Server) Dependents(ctx context.Context, docs []Document, from []string, open func(path string) (Document, bool)) (*Dependents, error) {
	in, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if !in.offers(TSServerRequestCommand) {
		return nil, nil
	}
	if err := s.sync(ctx, in, docs, true); err != nil {
		return nil, err
	}
	out := &Dependents{}
	all := slices.Clone(docs)
	given := map[string]bool{} // open already: followed, not opened again
	for _, d := range docs {
		given[d.Path] = true
	}
	seen := map[string]bool{} // followed, or to be
	for _, f := range from {
		seen[f] = true
	}
	level := slices.Sorted(slices.Values(from))
	full := false
	for len(level) > 0 && !full {
		var next []Document
		var follow []string // importers among docs
		for _, f := range level {
			if full {
				break
			}
			found, gap, err := in.tsserverImporters(ctx, f)
			if err != nil {
				return out, err
			}
			if gap != nil {
				out.Gaps = append(out.Gaps, *gap)
			}
			for _, p := range found {
				if seen[p] {
					continue
				}
				if given[p] {
					seen[p] = true
					follow = append(follow, p)
					continue
				}
				if len(out.Docs)+len(next) == MaxDependents {
					out.Gaps = append(out.Gaps, Gap{Path: f, Why: fmt.Sprintf("only the first %d files that import the changed files were checked", MaxDependents)})
					full = true
					break
				}
				seen[p] = true
				if d, ok := open(p); ok {
					next = append(next, d)
				}
			}
		}
		slices.SortFunc(next, func(a, b Document) int { return strings.Compare(a.Path, b.Path) })
		if len(next) > 0 {
			out.Docs = append(out.Docs, next...)
			all = append(all, next...)
			if err := s.sync(ctx, in, all, true); err != nil {
				return out, err
			}
		}
		level = follow
		for _, d := range next {
			level = append(level, d.Path)
		}
		slices.Sort(level)
	}
	return out, nil
}

// FindsDependents reports whether [Server.Dependents] asks the running
// server (typescript-language-server) for dependents; known is false when
// no server runs, and then Dependents must be asked to know.
func (s *Server) FindsDependents() (finds, known bool) {
	s.mu.Lock()
	in := s.inst
	s.mu.Unlock()
	if in == nil {
		return false, false
	}
	return in.offers(TSServerRequestCommand), true
}

// tsserverRequest forwards command with args to tsserver and decodes its
// response into out.
func (in *instance) tsserverRequest(ctx context.Context, command string, args, out any) error {
	return in.call(ctx, "workspace/executeCommand", executeCommandParams{
		Command:   TSServerRequestCommand,
		Arguments: []any{command, args},
	}, out)
}

// tsserverImporters asks tsserver for the files that import the open
// file f (absolute paths, sorted). gap says why they may be incomplete:
// tsserver failed to answer (an error answer is no failure of the
// server), or f is in an inferred project.
func (in *instance) tsserverImporters(ctx context.Context, f string) (found []string, gap *Gap, err error) {
	var r tsFileReferences
	if err := in.tsserverRequest(ctx, "fileReferences", map[string]any{"file": URI(f)}, &r); err != nil {
		if !answered(err) {
			return nil, nil, err
		}
		r.Message = err.Error()
	}
	if !r.Success {
		return nil, &Gap{Path: f, Why: "tsserver's fileReferences failed (it needs TypeScript 4.2 or later): " + tsError(r.Message)}, nil
	}
	found = r.files(f)
	var pi tsProjectInfo
	if err := in.tsserverRequest(ctx, "projectInfo", map[string]any{"file": URI(f), "needFileNameList": false}, &pi); err != nil && !answered(err) {
		return nil, nil, err
	}
	if strings.HasPrefix(pi.Body.ConfigFileName, inferredProject) {
		gap = &Gap{Path: f, Inferred: true, Why: "no tsconfig.json or jsconfig.json includes them, so tsserver knows only the open files and what they import"}
	}
	return found, gap, nil
}

// tsError is a tsserver error message without its stack trace: its
// lines up to the first frame, but for the repeat of the message that
// introduces the trace ("Error: ..."), joined with ": ".
func tsError(s string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "at ") {
			break
		}
		if l != "" && !strings.HasPrefix(l, "Error: ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, ": ")
}

// answered reports whether err is the server's error answer (it is
// alive), as opposed to a dead server or a timeout.
func answered(err error) bool {
	var rpc *jsonrpc2.Error
	return errors.As(err, &rpc)
}
