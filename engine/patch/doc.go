// Package patch is the whole-line hunk matcher shared by the edit and
// apply_patch steps, and the parser of apply_patch's "*** Begin Patch"
// envelope.
//
// The principal types are [Hunk] (lines to find and the lines that replace
// them), matched by [Match] and [Apply] with one forward cursor and reported
// by [MatchError] when a hunk is ambiguous or matches nowhere; [FileOp] (one
// "*** Add/Delete/Update File:" section), produced by [ParseEnvelope] and
// reported by [ParseError]; and [FromFindReplace], which lowers one
// {find, replace} of the edit step to a [Hunk].
//
// Invariant: matching is exact. The only tolerance is a trailing "\r" on a
// line, on either side, so that an LF-written patch matches a CRLF file.
// There is no whitespace or Unicode fuzz; near misses appear only in error
// messages.
package patch
