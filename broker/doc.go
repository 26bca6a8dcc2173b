// Package broker holds devbroker's sessions: what every wire surface (the
// MCP server in broker/mcp, the editor JSON-RPC endpoint) serves from.
//
// The principal types are [Manager] (the registry of roots and sessions of
// one broker process), [Root] (one root directory's drivers, shared by every
// session on it, so a root has one set of language servers however many
// agents use it) and [Session] (one connection's workspace and edit_file
// state).
//
// Invariant: a session's unwritten workspace changes are dropped only when
// the session asks ([Session.Discard]) or ends ([Session.Close], including
// an idle timeout); nothing else discards them.
//
// Invariant: nothing here speaks a protocol. The wire packages map engine
// and capability values to wire types (the ones both send, with the one
// mapping, in broker/wire) and errors to their own codes.
package broker
