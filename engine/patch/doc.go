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
//
// Invariant: terminators change only where the patch says so. A line the
// hunk keeps (the same on its old and new side, terminator as written
// included) keeps the file's terminator. A "-" line added back as a "+"
// line with another terminator ("a\n" as "a\r\n", or back) is replaced,
// which changes that terminator. A "+" line ending in "\r\n" gets CRLF. A
// "+" line ending in "\n" gets LF when any old line of its hunk (context or
// "-") ends in "\r\n": such a hunk was written from the file's real bytes
// and states every terminator ([Hunk.OldEOL]). Otherwise "\n" says nothing
// and the line takes the file's dominant terminator, so an LF-written patch
// leaves a CRLF file CRLF. A hunk made from the bytes of a whole file that
// ends in a newline therefore turns it into exactly its "+" side.
package patch
