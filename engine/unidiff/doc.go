// Package unidiff parses a standard unified diff for one file and applies it
// to that file's text. It backs the patch command of edit_file.
//
// The principal types are [Hunk] (one @@ hunk), produced by [Parse] and
// reported by [ParseError]; and [Range] (where a hunk landed in the result),
// produced by [Apply] and reported by [HunkError] when a hunk does not match,
// matches more than once, or overlaps another.
//
// Invariant: the diff's header line counts and positions never place a hunk.
// The body decides where a hunk ends, and a hunk's old side (its context and
// "-" lines) decides where it applies: it must appear, as whole lines, exactly
// once in the original content. Header counts only break one tie in [Parse]
// (whether blank lines at the end of a hunk are context or separators), and a
// header that places a context-free insertion mid-file makes [Apply] refuse
// rather than append.
//
// Invariant: matching is byte-exact. There is no whitespace fuzz, and "\r" is
// part of a line's content, in the diff and in the file alike: the diff is
// split on "\n" only. A caller that normalizes a CRLF file to LF before
// [Apply] must normalize a CRLF-written diff the same way.
//
// Final newlines follow the standard "\ No newline at end of file" marker:
// after an old-side line it requires the file to end there without a newline;
// after a new-side line the result ends without one; marked on the old side
// only, the result gains a final newline. A hunk without markers that replaces
// a file's last line keeps the file's final-newline state (lenient), and a
// hunk that appends at EOF ends the file with a newline unless its new side
// is marked.
package unidiff
