// Package lsp is devbroker's client for language servers, on
// go.lsp.dev/jsonrpc2 (with go.lsp.dev/protocol's method names and
// hand-written wire types where that package stops at LSP 3.16).
//
// The principal types are [Supervisor] (one [Pool] per server command
// and root, shared by every caller), [Pool] (the servers of one root, its
// lanes: a caller takes the free lane nearest its content, and a lane is
// added, up to the pool's size, only while every lane is answering),
// [Server] (a language server that is started lazily, kept warm,
// restarted after a crash and stopped when idle) and [Report] (the
// diagnostics of one settled request).
//
// Every request states the whole content the server must see, as
// [Document] values: the server's open documents are brought to exactly
// that set (didOpen, didChange with a new version, didClose for documents
// no longer given, which fall back to the disk), then the request runs. A
// document at disk content ([Document.OnDisk]) is the exception: it stays
// open until the disk changes under it, and gopls sees it padded so that
// it never takes devbroker's return to the disk content for a save (see
// sync.go).
// Requests on one server are serialized, so callers with different
// content never see each other's; callers asking at once are answered
// side by side by the lanes of a pool, each a whole Server.
//
// Settling is deterministic, without sleeps: a server that offers the
// gopls.diagnose_files command is asked to run it (it returns after it has
// published), typescript-language-server (it offers
// typescript.tsserverRequest; its publishes carry no version) has tsserver
// asked for each open document's syntax and type errors (and
// [Server.Dependents] finds, through tsserver, the files that import a
// changed one, which gopls and pyright report unasked), one that offers
// pull diagnostics (LSP 3.17) is asked per file, and any other is waited on until it has published for every
// synced version and ended its work-done progress, up to the caller's
// deadline. A server may offer pull diagnostics by registering them after
// initialize, and then stop pushing (pyright does): the wait for pushes
// also ends at that registration, and the request pulls. Only diagnostics published for the synced versions are
// reported.
//
// A server also follows the disk for the files it has not open, which it
// would otherwise keep reading from its first copy. Before each request
// every input of its answer is checked against the disk by metadata
// (verify.go: size, modification and change times, inode, device, mode,
// a symlink's target's; a racy stamp's content hash): every file under
// the root but VCS metadata and, for a Go server ([Inputs.Go]), the go
// command's inputs outside it (goinputs.go). What changed goes out as one
// workspace/didChangeWatchedFiles, by every path the server knows the file
// by (a symlink and its target): to gopls every change it acts on,
// wherever it is, followed by a reload when another input changed
// ([Inputs.ActsOn], [Inputs.Reload]), and a new process when a file kept
// its inode and mtime ([Inputs.MtimeCache]); to another server the
// changes under the root it registered watchers for; never a path that
// resolves outside the root through a symlink under it. An input that
// cannot be checked is reported by [Server.Unverified]. Events are hints:
// [Server.FilesChanged] reports the changes devbroker makes itself, and
// on Linux a watcher (fsnotify) over the root, restarted after a failure,
// reports other programs' changes; without either (another platform,
// [Config.NoWatch]) nothing is missed. The same check gives
// [Server.Links], the symlinks under the root, to callers that must hide
// those leaving it, and [Server.Blind], the packages holding sources gopls
// never compiles.
//
// A server's work-done progress ($/progress after
// window/workDoneProgress/create; gopls's "Setting up workspace: Loading
// packages...") is a stream: [Server.Subscribe] hands each event to a
// subscriber on its own goroutine, starting with the work open at the
// time, and [Server.Busy] says whether work is open now. The work of
// devbroker's own requests (gopls.diagnose_files, run under a token
// devbroker gives) is in the stream but does not make the server busy.
//
// The package knows language servers, not agents: it starts processes
// (it is the only package that starts language servers), speaks LSP, and
// converts nothing to devbroker's diagnostics; positions stay UTF-16.
package lsp
