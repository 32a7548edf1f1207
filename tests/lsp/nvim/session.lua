-- A scripted Neovim session (tests/lsp/test_neovim.py): with the game open
-- and the server attached, misspell `can_move` where `turn` names it, wait
-- for the server's diagnostic and write every diagnostic to the file
-- `NVIM_OUT` names, one a line: `LINE:COLUMN: SEVERITY CODE MESSAGE`
-- (1-based line and column, the message's first line).
local out = assert(os.getenv("NVIM_OUT"), "NVIM_OUT names the output file")

local function finish(lines)
  local file = assert(io.open(out, "w"))
  file:write(table.concat(lines, "\n"), "\n")
  file:close()
  vim.cmd("qall!")
end

local buf = vim.api.nvim_get_current_buf()
local attached = vim.wait(30000, function()
  return #vim.lsp.buf_get_clients(buf) > 0
end, 50)
if not attached then finish({ "no client attached" }) end

-- The typo, typed as an edit of the buffer (not saved).
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, line in ipairs(lines) do
  local s, e = line:find("using can_move%.")
  if s then
    vim.api.nvim_buf_set_text(buf, i - 1, s + 5, i - 1, e - 1, { "can_mvoe" })
    break
  end
end

local found = vim.wait(60000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
if not found then finish({ "no diagnostic" }) end

local shown = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  local severity = ({ "error", "warning", "info", "hint" })[d.severity] or "?"
  local message = d.message:match("^[^\n]*")
  table.insert(shown, string.format("%d:%d: %s %s %s", d.lnum + 1, d.col + 1, severity, code, message))
end
table.sort(shown, function(a, b)
  local la, ca = a:match("^(%d+):(%d+)")
  local lb, cb = b:match("^(%d+):(%d+)")
  return tonumber(la) * 10000 + tonumber(ca) < tonumber(lb) * 10000 + tonumber(cb)
end)
finish(shown)
