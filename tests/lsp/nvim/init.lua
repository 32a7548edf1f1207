-- Neovim configuration for tabula's language server (docs/EDITORS.md).
-- Works with Neovim 0.7 and later; `TABULA` names the binary (default:
-- `tabula` on the PATH).
local tabula = os.getenv("TABULA") or "tabula"

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = { "*.rules", "*.kif", "*.gdl" },
  callback = function() vim.bo.filetype = "tabula" end,
})

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tabula",
  callback = function(args)
    local client = vim.lsp.start_client({
      name = "tabula",
      cmd = { tabula, "lsp" },
      root_dir = vim.fn.fnamemodify(args.file, ":p:h"),
    })
    if client then vim.lsp.buf_attach_client(args.buf, client) end
  end,
})
