package editfile

import "github.com/devbroker/devbroker/engine/text"

// Base is, for a file this session's edits changed, its content before
// the first change the session keeps (its undo base): before is nil when
// the session created the file. ok is false when the session has not
// changed the file (or undid every change), and when cur, the file's
// content now, is not what the session's last change left: someone
// changed it since, so the lines the session changed are not known.
func (s *Session) Base(rel string, cur *text.Doc) (before *text.Doc, ok bool) {
	s.mu.Lock()
	stack := s.undo[rel]
	s.mu.Unlock()
	if len(stack) == 0 || cur == nil || cur.Revision() != stack[len(stack)-1].after {
		return nil, false
	}
	first := stack[0].before
	if first == nil {
		return nil, true
	}
	d, err := text.Parse(first)
	if err != nil {
		return nil, false
	}
	return d, true
}
