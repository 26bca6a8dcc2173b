-- Run by TestNeovimPlugin: opens a file, changes it without saving, runs a
-- plan through the plugin that edits the unsaved line, lets the plugin
-- apply the returned edit, and writes what the buffer shows to $DEVBROKER_OUT.
-- Then it opens a Go file and runs a plan whose check fails: the plugin
-- must apply nothing and show the failure.
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

  -- A plan whose check fails: nothing reaches the buffer.
  local notes = {}
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('DEVBROKER_GOFILE')))
  local gobuf = vim.api.nvim_get_current_buf()
  local before = vim.api.nvim_buf_get_lines(gobuf, 0, -1, true)
  res, perr = db.plan({
    paths = { 'main.go' },
    ops = {
      { step = 'edit', args = { path = 'main.go', edits = { { find = '\tprintln(helper(1))', replace = '\tprintln(helper(1, 2))' } } } },
      { step = 'check' },
    },
  })
  assert(res, perr and perr.message)
  table.insert(lines, string.format('failed plan: ok %s, error %s, edit %s', tostring(res.ok), res.error and res.error.kind or 'none', tostring(res.edit ~= nil)))
  table.insert(lines, 'go buffer unchanged: ' .. tostring(vim.deep_equal(before, vim.api.nvim_buf_get_lines(gobuf, 0, -1, true))))
  table.insert(lines, 'go buffer modified: ' .. tostring(vim.bo[gobuf].modified))
  local shown = false
  for _, n in ipairs(notes) do
    if n.level == vim.log.levels.ERROR and n.msg:find('step 2 (check) [diagnostics]', 1, true) and n.msg:find('main.go:6:', 1, true) and n.msg:find('too many arguments', 1, true) then
      shown = true
    end
  end
  table.insert(lines, 'failure shown: ' .. tostring(shown) .. (shown and '' or (' ' .. vim.inspect(notes))))
  db.stop()
  finish(lines)
end)
if not ok then
  finish({ 'error: ' .. tostring(err) })
end
