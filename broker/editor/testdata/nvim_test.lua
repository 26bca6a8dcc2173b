-- Run by TestNeovimPlugin: opens a file, changes it without saving, runs a
-- plan through the plugin that edits the unsaved line, lets the plugin
-- apply the returned edit, and writes what the buffer shows to $DEVBROKER_OUT.
local out = assert(os.getenv('DEVBROKER_OUT'))
local function finish(lines)
  local f = assert(io.open(out, 'w'))
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local db = require('devbroker')
  db.setup({ root = os.getenv('DEVBROKER_ROOT'), diagnostics = false, timeout = 20000 })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DEVBROKER_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 1, 2, false, { 'unsaved line' })
  local res, perr = db.plan({
    paths = { 'a.txt' },
    ops = {
      { step = 'read_lines', args = { path = 'a.txt', start = 2, ['end'] = 2 }, label = 'seen' },
      { step = 'edit', args = { path = 'a.txt', edits = { { find = 'unsaved line', replace = 'agent line\nagent 😀 line 2' } } } },
    },
  })
  assert(res, perr and perr.message)
  assert(res.ok, vim.inspect(res.error))
  local lines = { 'seen: ' .. res.reads.seen }
  vim.list_extend(lines, vim.api.nvim_buf_get_lines(buf, 0, -1, true))
  table.insert(lines, 'modified: ' .. tostring(vim.bo[buf].modified))
  vim.cmd('silent undo')
  table.insert(lines, 'after undo: ' .. vim.api.nvim_buf_get_lines(buf, 1, 2, true)[1])
  db.stop()
  finish(lines)
end)
if not ok then
  finish({ 'error: ' .. tostring(err) })
end
