-- devbroker for Neovim: starts `devbroker serve --stdio`, syncs the buffers
-- under the root (so the broker sees unsaved text), runs workspace plans and
-- applies the returned WorkspaceEdit to the buffers, with Neovim's undo.
-- The broker never writes the disk for a plan run with apply "editor" (the
-- default here): saving stays the user's call. A plan that failed (a step
-- failed, or lint or check found an error) comes back without an edit and
-- nothing is applied: the failure and its diagnostics are shown instead.
--
-- Protocol: docs/editor-protocol.md in the devbroker repository.
-- Works with Neovim 0.7 and later (vim.lsp.rpc does the Content-Length
-- framing).

local M = {}

local defaults = {
  -- The command that serves the editor endpoint; --root is appended.
  cmd = { 'devbroker', 'serve', '--stdio' },
  -- The workspace root; default: the current directory.
  root = nil,
  -- Ask for textDocument/publishDiagnostics after lint and check, and show
  -- them with vim.diagnostic.
  diagnostics = true,
  -- How long the synchronous helpers wait for an answer, in milliseconds.
  timeout = 30000,
}

local state = {
  opts = nil,
  client = nil, -- the vim.lsp.rpc client
  ready = false,
  info = nil, -- initialize's result
  synced = {}, -- bufnr -> changedtick last sent
  uris = {}, -- bufnr -> uri sent in didOpen
  ns = nil,
}

local function notify(msg, level)
  vim.notify('devbroker: ' .. msg, level or vim.log.levels.INFO)
end

local function root()
  -- gsub returns the count too: keep only the string, or the extra value
  -- becomes an extra argument wherever root() ends an argument list.
  local dir = vim.fn.fnamemodify(state.opts.root or vim.fn.getcwd(), ':p'):gsub('/$', '')
  return dir
end

-- under_root reports whether buffer bufnr shows a file under the root.
local function under_root(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return false
  end
  local abs = vim.fn.fnamemodify(name, ':p')
  local r = root() .. '/'
  return abs:sub(1, #r) == r
end

-- buffer_text is the text the editor shows, as it would be saved.
local function buffer_text(bufnr)
  local eol = vim.bo[bufnr].fileformat == 'dos' and '\r\n' or '\n'
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), eol)
  if vim.bo[bufnr].eol then
    text = text .. eol
  end
  return text
end

local function show_diagnostics(params)
  if not state.ns then
    state.ns = vim.api.nvim_create_namespace('devbroker')
  end
  local bufnr = vim.uri_to_bufnr(params.uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local out = {}
  for _, d in ipairs(params.diagnostics or {}) do
    local function col(pos)
      local line = vim.api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, false)[1] or ''
      local ok, byte = pcall(vim.str_byteindex, line, pos.character, true)
      return ok and byte or #line
    end
    table.insert(out, {
      lnum = d.range.start.line,
      col = col(d.range.start),
      end_lnum = d.range['end'].line,
      end_col = col(d.range['end']),
      severity = d.severity,
      source = d.source,
      code = d.code,
      message = d.message,
    })
  end
  vim.diagnostic.set(state.ns, bufnr, out)
end

local dispatchers = {
  notification = function(method, params)
    if method == 'textDocument/publishDiagnostics' then
      show_diagnostics(params)
    elseif method == 'window/logMessage' then
      local level = ({ vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO })[params.type]
      notify(params.message, level or vim.log.levels.DEBUG)
    end
  end,
  on_error = function(code, err)
    notify('rpc error ' .. tostring(code) .. ': ' .. vim.inspect(err), vim.log.levels.ERROR)
  end,
  on_exit = function(code)
    state.client, state.ready, state.synced, state.uris = nil, false, {}, {}
    if code ~= 0 then
      vim.schedule(function()
        notify('the server exited with code ' .. tostring(code), vim.log.levels.WARN)
      end)
    end
  end,
}

-- terminate stops the server process (vim.lsp.rpc in Neovim 0.7 has no
-- terminate).
local function terminate(client)
  if client.terminate then
    client.terminate()
  elseif client.handle and not client.handle:is_closing() then
    client.handle:kill(15)
  end
end

local function start_rpc(cmd)
  if vim.fn.has('nvim-0.10') == 1 then
    return vim.lsp.rpc.start(cmd, dispatchers)
  end
  local args = {}
  for i = 2, #cmd do
    args[#args + 1] = cmd[i]
  end
  return vim.lsp.rpc.start(cmd[1], args, dispatchers)
end

-- request sends a request and waits for its answer: it returns the result,
-- or nil and the error.
function M.request(method, params)
  M.start()
  local done, err, result = false, nil, nil
  state.client.request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(state.opts.timeout, function()
    return done
  end, 10) then
    return nil, { message = method .. ' timed out' }
  end
  return result, err
end

-- start starts the server and initializes the connection, once.
function M.start()
  if state.client and state.ready then
    return state.info
  end
  state.opts = state.opts or vim.deepcopy(defaults)
  local cmd = vim.deepcopy(state.opts.cmd)
  vim.list_extend(cmd, { '--root', root() })
  state.client = start_rpc(cmd)
  local done, err
  state.client.request('initialize', {
    processId = vim.fn.getpid(),
    clientInfo = { name = 'devbroker.nvim' },
    capabilities = { general = { positionEncodings = { 'utf-16' } } },
    initializationOptions = { publishDiagnostics = state.opts.diagnostics },
  }, function(e, r)
    done, err, state.info = true, e, r
  end)
  if not vim.wait(state.opts.timeout, function()
    return done
  end, 10) or err then
    local msg = err and err.message or 'initialize timed out'
    terminate(state.client)
    state.client = nil
    error('devbroker: ' .. msg)
  end
  state.client.notify('initialized', vim.empty_dict())
  state.ready = true
  return state.info
end

-- sync sends buffer bufnr to the broker if it changed since the last sync.
function M.sync(bufnr)
  if not state.ready or not under_root(bufnr) then
    return
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  if state.synced[bufnr] == tick then
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)
  if not state.synced[bufnr] then
    state.client.notify('textDocument/didOpen', {
      textDocument = { uri = uri, languageId = vim.bo[bufnr].filetype, version = tick, text = buffer_text(bufnr) },
    })
  else
    state.client.notify('textDocument/didChange', {
      textDocument = { uri = uri, version = tick },
      contentChanges = { { text = buffer_text(bufnr) } },
    })
  end
  state.synced[bufnr], state.uris[bufnr] = tick, uri
end

-- sync_all syncs every loaded buffer under the root.
function M.sync_all()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    M.sync(bufnr)
  end
end

local function close(bufnr)
  if state.ready and state.synced[bufnr] then
    state.client.notify('textDocument/didClose', { textDocument = { uri = state.uris[bufnr] } })
  end
  state.synced[bufnr], state.uris[bufnr] = nil, nil
end

-- apply applies a plan result's WorkspaceEdit to the buffers, after
-- checking that no buffer changed since the plan saw it.
function M.apply(edit)
  if not edit or not edit.documentChanges then
    return true
  end
  for _, change in ipairs(edit.documentChanges) do
    local td = change.textDocument
    if td and td.version then
      local bufnr = vim.uri_to_bufnr(td.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.api.nvim_buf_get_changedtick(bufnr) ~= td.version then
        notify(td.uri .. ' changed since the plan ran; run it again', vim.log.levels.WARN)
        M.sync_all()
        return false
      end
    end
  end
  -- The edit is one undo step of its own in each loaded buffer, apart from
  -- what the user typed before it.
  for _, change in ipairs(edit.documentChanges) do
    if change.textDocument then
      local bufnr = vim.uri_to_bufnr(change.textDocument.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) then
        vim.api.nvim_buf_call(bufnr, function()
          vim.o.undolevels = vim.o.undolevels -- breaks the undo sequence
        end)
      end
    end
  end
  vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
  M.sync_all()
  return true
end

-- failure is the message that reports a failed plan: the step that failed
-- and the error diagnostics (then the others), at most max_listed of them.
local max_listed = 10
function M.failure(res)
  local e = res.error or {}
  local lines = {}
  if res.error then
    table.insert(lines, string.format('plan failed at step %d (%s) [%s]: %s', e.step or 0, e.name or '', e.kind or '', e.message or ''))
  else
    table.insert(lines, 'plan not ok')
  end
  local ds = res.diagnostics or {}
  for i, d in ipairs(ds) do
    if i > max_listed then
      table.insert(lines, string.format('... and %d more', #ds - max_listed))
      break
    end
    table.insert(lines, string.format('%s:%d:%d: %s: %s', d.path, d.line, d.column, d.severity, d.message))
  end
  if res.apply == 'editor' then
    table.insert(lines, 'nothing was applied to the buffers')
  end
  return table.concat(lines, '\n')
end

-- plan runs a plan (a table: paths, ops). With apply "editor" (the
-- default), a plan that is ok has its edit applied to the buffers; a plan
-- that failed (a step failed, or lint or check found an error) applies
-- nothing: the broker dropped its changes, and the failure is shown. It
-- returns the result (DevResult plus apply, edit and reverted), or nil and
-- the error.
function M.plan(plan, apply)
  M.start()
  M.sync_all()
  local params = vim.deepcopy(plan)
  if params.paths and vim.tbl_isempty(params.paths) then
    params.paths = nil -- an empty Lua table would encode as {}
  end
  params.apply = apply or params.apply or 'editor'
  local res, err = M.request('devbroker/plan', params)
  if err then
    return nil, err
  end
  if res.written and #res.written > 0 then
    vim.cmd('checktime')
  end
  if not res.ok then
    notify(M.failure(res), vim.log.levels.ERROR)
  elseif res.apply == 'editor' then
    M.apply(res.edit)
  end
  return res
end

-- plan_file runs the plan in a JSON file and reports the outcome.
function M.plan_file(path, apply)
  local f = io.open(vim.fn.expand(path), 'r')
  if not f then
    notify('cannot read ' .. path, vim.log.levels.ERROR)
    return
  end
  local plan = vim.json.decode(f:read('*a'))
  f:close()
  local res, err = M.plan(plan, apply)
  if err then
    notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    return
  end
  if res.ok then
    notify(string.format('ok: %d change(s), %d diagnostic(s)', #(res.changes or {}), #(res.diagnostics or {})))
  end
  for label, text in pairs(res.reads or {}) do
    notify('--- ' .. label .. ' ---\n' .. text)
  end
  return res
end

-- stop ends the connection; the session's unwritten changes are dropped.
function M.stop()
  if state.client then
    if state.ready then
      M.request('shutdown', nil)
      state.client.notify('exit', nil)
    end
    terminate(state.client)
  end
  state.client, state.ready, state.synced, state.uris = nil, false, {}, {}
end

function M.setup(opts)
  state.opts = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup('devbroker', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'TextChanged', 'InsertLeave', 'BufReadPost' }, {
    group = group,
    callback = function(a)
      M.sync(a.buf)
    end,
  })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    callback = function(a)
      if state.ready and under_root(a.buf) then
        M.sync(a.buf)
        state.client.notify('textDocument/didSave', { textDocument = { uri = vim.uri_from_bufnr(a.buf) } })
      end
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufUnload', 'BufDelete' }, {
    group = group,
    callback = function(a)
      close(a.buf)
    end,
  })
  vim.api.nvim_create_autocmd('VimLeavePre', { group = group, callback = M.stop })
  vim.api.nvim_create_user_command('DevbrokerPlan', function(c)
    M.plan_file(c.args, c.bang and 'disk' or nil)
  end, { nargs = 1, bang = true, complete = 'file', desc = 'devbroker: run a plan (JSON file); ! writes the disk' })
  vim.api.nvim_create_user_command('DevbrokerDiscard', function()
    local res, err = M.request('devbroker/discard', vim.empty_dict())
    notify(err and err.message or ('discarded ' .. table.concat(res.discarded, ', ')))
  end, { desc = 'devbroker: drop the session changes the editor has not applied' })
end

return M
